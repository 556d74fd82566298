/**
 * Runs before every test file (vitest.config.ts): a deprecated call a test runs into fails it. A warning in a CI log
 * went unread: node-postgres warned in every PostgreSQL run of queries sent on a transaction's connection while
 * another ran (lib/auth/throttle.ts), which its next major version refuses.
 */
process.throwDeprecation = true;
