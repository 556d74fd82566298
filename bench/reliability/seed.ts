/** What the scenarios seed before a console starts: users, connections, rows to purge. */
import { sql } from "drizzle-orm";

import { createUser } from "@/lib/auth/users";
import type { Database } from "@/lib/db";
import { insertTestConnection, TENANT_ID } from "@/lib/testing/webhooks";
import { ensureEventPartitions } from "@/lib/webhooks/partitions";
import { seedDemoConnections } from "@/tooling/seed-connections";

export const users = {
  admin: { email: "admin@reliability.test", password: "reliability-admin-password", name: "Rel Admin", role: "admin" },
  support: {
    email: "support@reliability.test",
    password: "reliability-support-password",
    name: "Rel Support",
    role: "support",
  },
} as const;

export async function seedUsers(): Promise<void> {
  for (const user of Object.values(users)) await createUser({ ...user });
}

/** A connection with server keys (signed webhooks) or without (unsigned accepted). */
export async function seedConnection(
  name: string,
  keys: readonly string[] = [],
): Promise<{ id: string; token: string; keys: readonly string[] }> {
  return { ...(await insertTestConnection(name, keys)), keys };
}

/** The emulator's demo tenants as connections (Acme in US first by name), through the real creation flow. */
export async function seedServiceConnections() {
  return seedDemoConnections();
}

/** `count` events received `ageDays` ago on `connectionId`, and as many rejections, for the retention purge. */
export async function seedOldRows(db: Database, connectionId: string, count: number, ageDays: number): Promise<void> {
  const at = new Date(Date.now() - ageDays * 86_400_000);
  // Rows written straight into the table: their month's partition first.
  await ensureEventPartitions(at, at, db);
  await db.execute(sql`
    insert into webhook_events (connection_id, event_id, type, tenant_id, envelope_time, first_received_at, last_received_at, signature_status, raw_body)
    select ${connectionId}::uuid, 'old-' || g, 'authenticator.expired', ${TENANT_ID}, now(), ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz, 'verified_key1', '{}'
    from generate_series(1, ${count}) g`);
  await db.execute(sql`
    insert into webhook_rejections (connection_id, received_at, status, reason, body_sha256, headers)
    select ${connectionId}::uuid, ${at.toISOString()}::timestamptz, 401, 'bad_signature', 'x', '{}'::jsonb
    from generate_series(1, ${count}) g`);
}
