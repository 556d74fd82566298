/**
 * What the alerts' tests share: webhooks posted through the real receiver at a chosen instant, and the alerts' rows.
 */
import { eq, sql } from "drizzle-orm";
import { vi } from "vitest";

import { getDb } from "@/lib/db";
import { alertNotices, alerts } from "@/lib/db/alerts-schema";
import { reloadEnv } from "@/lib/env";
import { expiredEvent, insertTestConnection, webhookRequest } from "@/lib/testing/webhooks";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { resetRejectionLimits } from "@/lib/webhooks/rejections";
import { KEY1, KEY2 } from "@/lib/webhooks/test-helpers";

import { evaluateAlerts } from "./evaluate";

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * An event that expired a minute before `at`, received at `at`, signed with `keys` (none: unsigned); answers the
 * receiver's status.
 */
export async function receiveAt(
  token: string,
  at: Date,
  keys: readonly string[] = [],
  data: Record<string, unknown> = {},
): Promise<number> {
  const event = expiredEvent({ data: { expiresAt: new Date(at.getTime() - 60_000).toISOString(), ...data } });
  const response = await receiveWebhook(webhookRequest(token, event, { keys, timestamp: seconds(at) }), {
    token,
    now: at,
  });
  return response.status;
}

/** `count` deliveries at `at` signed with a key the connection does not hold (refused as a bad signature). */
export async function refuseBadSignatures(token: string, at: Date, count: number, wrongKey: string): Promise<void> {
  resetRejectionLimits();
  for (let i = 0; i < count; i++) await receiveAt(token, at, [wrongKey]);
}

/** A delivery without any signature at `at`. */
export async function receiveUnsigned(token: string, at: Date): Promise<number> {
  const response = await receiveWebhook(webhookRequest(token, expiredEvent(), { signature: null }), { token, now: at });
  return response.status;
}

export async function alertsOf(connectionId: string) {
  const db = await getDb();
  return db.select().from(alerts).where(eq(alerts.connectionId, connectionId)).orderBy(alerts.openedAt);
}

export async function noticesOf(alertId: string) {
  const db = await getDb();
  return db.select().from(alertNotices).where(eq(alertNotices.alertId, alertId)).orderBy(alertNotices.id);
}

/** Makes every pending notice due now, as if its wait had passed. */
export async function makeNoticesDue(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`update alert_notices set due_at = now() - interval '1 second' where state = 'pending'`);
}

export const minutesAfter = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

/**
 * A connection whose server key was rotated at the service: 5 bad signatures at `at`, evaluated, so a bad_signatures
 * alert opens.
 */
export async function openRotatedKeyAlert(name: string, at = new Date()) {
  const connection = await insertTestConnection(name, [KEY1]);
  // An event that carries an email address and a phone number: neither may reach a notice.
  await receiveAt(connection.token, minutesAfter(at, -5), [KEY1], {
    email: "jane.doe@example.com",
    phoneNumber: "+15555550123",
  });
  await refuseBadSignatures(connection.token, at, 5, KEY2);
  await evaluateAlerts({ now: at });
  const [alert] = await alertsOf(connection.id);
  return { connection, alert: alert! };
}

/** The notices' environment for a test file: `vars`, with the console's public URL the notices link to. */
export function stubNoticeEnv(vars: Record<string, string>): void {
  for (const [name, value] of Object.entries({ ...vars, CONSOLE_PUBLIC_URL: "https://console.example.test" }))
    vi.stubEnv(name, value);
  reloadEnv();
}

export function restoreEnv(): void {
  vi.unstubAllEnvs();
  reloadEnv();
}
