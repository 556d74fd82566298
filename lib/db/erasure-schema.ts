import { sql } from "drizzle-orm";
import { boolean, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * Erasures of an end user's data (lib/erasure) under way: the row holds the user id to go on after a
 * restart, until the transaction that audits the erasure (by a keyed hash) removes it. No foreign keys:
 * a connection or console user deleted meanwhile does not stop an erasure.
 */

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const endUserErasures = pgTable(
  "end_user_erasures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").notNull(),
    /** The one connection whose data is erased; null: every connection's. */
    connectionId: uuid("connection_id"),
    connectionName: text("connection_name"),
    /** Who asked, for the audit record written at the end. */
    actorId: uuid("actor_id"),
    actorEmail: text("actor_email"),
    /**
     * Whether what names the user outside their events (audit records, watch list entries, replays' filters)
     * is erased: done first, while their events still say which email and phone number are theirs.
     */
    mentionsErased: boolean("mentions_erased").notNull().default(false),
    /** What has been erased so far (lib/erasure/types.ts ErasureCounts): counts only. */
    erased: jsonb("erased").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  // One erasure at a time per user and scope: asking again while one runs joins it.
  (t) => [uniqueIndex("end_user_erasures_user_scope_idx").on(t.userId, sql`coalesce(${t.connectionId}::text, '')`)],
);
