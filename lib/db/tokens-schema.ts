import { sql } from "drizzle-orm";
import {
  bigserial,
  check,
  index,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

// Relative, not "@/": drizzle-kit reads this file without the app's path aliases.
import { apiTokenRevocationReasons } from "../auth/api-token-format";
import { consoleUsers, roleEnum } from "./schema";

/**
 * API tokens (lib/auth/api-tokens.ts verifies them, lib/tokens manages them): bearer credentials for
 * scripts and monitoring. Only a SHA-256 of each secret is kept: the secrets are 256-bit random, so a
 * fast hash cannot be searched and the lookup is one index probe.
 */

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const apiTokenRevocationReason = pgEnum("api_token_revocation_reason", apiTokenRevocationReasons);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    role: roleEnum("role").notNull(),
    /** `api`: the /api data routes; `metrics`: GET /api/metrics. */
    scopes: text("scopes").array().notNull(),
    /** Hex SHA-256 of the secret. */
    secretHash: text("secret_hash").notNull(),
    /** The console user who made it; null when an operator made it with the CLI without --user. */
    createdBy: uuid("created_by").references(() => consoleUsers.id, { onDelete: "set null" }),
    /**
     * Whom it acts for: it works only while this user is enabled and holds its role. Null for an
     * operator's token made without --user. Deleting the user deletes the token, so a token made for
     * someone can never turn into an operator's token.
     */
    userId: uuid("user_id").references(() => consoleUsers.id, { onDelete: "cascade" }),
    createdAt: at("created_at").notNull().defaultNow(),
    expiresAt: at("expires_at"),
    revokedAt: at("revoked_at"),
    revokedBy: uuid("revoked_by").references(() => consoleUsers.id, { onDelete: "set null" }),
    revokedReason: apiTokenRevocationReason("revoked_reason"),
    lastUsedAt: at("last_used_at"),
    lastUsedAddress: text("last_used_address"),
  },
  (t) => [
    uniqueIndex("api_tokens_name_lower_idx").on(sql`lower(${t.name})`),
    uniqueIndex("api_tokens_secret_hash_idx").on(t.secretHash),
    index("api_tokens_user_idx").on(t.userId),
    check(
      "api_tokens_scopes_check",
      sql`cardinality(${t.scopes}) > 0 and ${t.scopes} <@ array['api', 'metrics']::text[]`,
    ),
  ],
);

/** Every address a token was used from: a use from one not listed yet is audited. */
export const apiTokenAddresses = pgTable(
  "api_token_addresses",
  {
    tokenId: uuid("token_id")
      .notNull()
      .references(() => apiTokens.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    firstSeenAt: at("first_seen_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.address] })],
);

/**
 * Bearer values that matched no token, by address, for the guess limit (lib/auth/api-token-throttle.ts).
 * Apart from login_attempts: a flood of bad tokens never counts against password sign-in.
 */
export const apiTokenGuesses = pgTable(
  "api_token_guesses",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    address: text("address").notNull(),
    guessedAt: at("guessed_at").notNull(),
  },
  (t) => [index("api_token_guesses_address_idx").on(t.address, t.guessedAt)],
);
