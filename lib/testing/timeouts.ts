/**
 * How many times its usual limit a test or hook may run before Vitest calls it hung: TEST_TIMEOUT_SCALE, 1 unless
 * set. A limit catches a hang, never checks speed. CI's PostgreSQL run, at nice 19 beside e2e, sets 4
 * (docs/performance.md, "Test databases").
 */
const TIMEOUT_SCALE = readScale(process.env.TEST_TIMEOUT_SCALE);

function readScale(value: string | undefined): number {
  if (value === undefined || value === "") return 1;
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale < 1)
    throw new Error(`TEST_TIMEOUT_SCALE must be a number of at least 1, not "${value}".`);
  return scale;
}

/**
 * Any other limit a test sets to catch a hang, stretched as the defaults are: its own or a hook's
 * (`it(name, fn, scaled(180_000))`), a poll's, a child process's.
 */
export const scaled = (ms: number) => ms * TIMEOUT_SCALE;
