/**
 * Shared fixtures for the webhooks feature's tests (not a test file itself): the log's seed (five events on
 * two connections, received a minute apart from 2025-06-01T00:01Z) for conditions, paging, webhooks and
 * export-rows.test.ts, and the receiver's connections, keys and rows for receive*.test.ts.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";

import { getDb, type Database } from "@/lib/db";
import { webhookEvents, webhookRejections } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection, TENANT_ID } from "@/lib/testing/webhooks";

import { parseEventFilters } from "./filters";
import { ensureEventPartitions } from "./partitions";
import type { EventFilters } from "./schemas";
import { listWebhookEvents } from "./webhooks";

const base = Date.parse("2025-06-01T00:00:00.000Z");
/** The seed's clock: `minutes` after 2025-06-01T00:00Z. */
export const at = (minutes: number) => new Date(base + minutes * 60_000);

/** The log's filters as a link gives them, parsed as the API parses them. */
export function filters(input: Record<string, string> = {}): EventFilters {
  const parsed = parseEventFilters(input);
  if (!parsed.ok) throw new Error(parsed.errorDescription);
  return parsed.filters;
}

/** The user ids of the first 200 events the filters find, newest first. */
export async function userIds(input: Record<string, string>) {
  return (await listWebhookEvents(filters({ limit: "200", ...input }), "admin")).items.map((e) => e.userId);
}

/**
 * The test file's own database with the log's seed in it, set up before its tests and dropped after them:
 * call at the file's top level; the fields are filled in by the time a test runs.
 */
export function setUpSeededWebhookLog(): { db: Database; acme: string; globex: string } {
  const log = {} as { db: Database; acme: string; globex: string };
  let tearDown = async () => {};
  beforeAll(async () => {
    const database = await setUpTestDatabase();
    tearDown = database.tearDown;
    Object.assign(log, { db: database.db }, await seedWebhookLog(database.db));
  });
  afterAll(() => tearDown());
  return log;
}

/**
 * Inserts the seed (straight into the table, its months' partitions first: the receiver makes its own) and names its
 * connections.
 */
export async function seedWebhookLog(db: Database): Promise<{ acme: string; globex: string }> {
  await ensureEventPartitions(new Date(base), new Date("2025-07-01T00:00:00Z"));
  await ensureEventPartitions(new Date(Date.now() - 2 * 86_400_000), new Date());
  const acme = (await insertTestConnection("Acme")).id;
  const globex = (await insertTestConnection("Globex")).id;
  const seeds: Array<Partial<typeof webhookEvents.$inferInsert> & { n: number }> = [
    {
      n: 1,
      connectionId: acme,
      userId: "usr_alice",
      verificationMethod: "PUSH",
      devicePlatform: "IOS",
      userAuthenticatorId: "ua_1",
      expiresAt: at(-60),
      email: "alice@example.com",
    },
    {
      n: 2,
      connectionId: acme,
      userId: "usr_albert",
      verificationMethod: "SMS",
      userAuthenticatorId: "ua_2",
      expiresAt: at(-30),
      phoneNumber: "+15555551234",
    },
    {
      n: 3,
      connectionId: globex,
      userId: "usr_bob",
      verificationMethod: "PUSH",
      devicePlatform: "ANDROID",
      userAuthenticatorId: "ua_3",
      expiresAt: at(0),
    },
    {
      n: 4,
      connectionId: globex,
      userId: "usr_al%ce",
      verificationMethod: "PASSKEY",
      userAuthenticatorId: "ua_4",
      expiresAt: at(10),
    },
    {
      n: 5,
      connectionId: acme,
      userId: "usr_alice",
      verificationMethod: "EMAIL_OTP",
      userAuthenticatorId: "ua_5",
      expiresAt: at(20),
      type: "authenticator.created",
    },
  ];
  for (const { n, ...values } of seeds) {
    await db.insert(webhookEvents).values({
      type: "authenticator.expired",
      eventId: `evt-${n}`,
      tenantId: TENANT_ID,
      envelopeTime: at(n),
      firstReceivedAt: at(n),
      lastReceivedAt: at(n),
      signatureStatus: "verified_key1",
      rawBody: JSON.stringify({ id: `evt-${n}`, data: { email: values.email, phoneNumber: values.phoneNumber } }),
      connectionId: acme,
      ...values,
    });
  }
  return { acme, globex };
}

export const KEY1 = "test_srv_current_0000000000000000000001";
export const KEY2 = "test_srv_previous_000000000000000000002";

type TestConnection = { id: string; token: string };

/** A connection signed with KEY1, one rotating from KEY2 to KEY1, and one without a server key. */
export async function insertReceiverConnections(): Promise<{
  signed: TestConnection;
  rotating: TestConnection;
  unsigned: TestConnection;
}> {
  return {
    signed: await insertTestConnection("Signed", [KEY1]),
    rotating: await insertTestConnection("Rotating", [KEY1, KEY2]),
    unsigned: await insertTestConnection("Unsigned"),
  };
}

export async function eventRow(connectionId: string, eventId: string) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(webhookEvents)
    .where(sql`${webhookEvents.connectionId} = ${connectionId} and ${webhookEvents.eventId} = ${eventId}`);
  return rows;
}

export async function lastRejection() {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(webhookRejections)
    .orderBy(sql`${webhookRejections.id} desc`)
    .limit(1);
  return row;
}

/** Asserts the answer's status and error body, and that the newest rejection records it; both, for further checks. */
export async function expectRejected(response: Response, status: number, reason: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: string; errorDescription: string };
  expect(body.error).toEqual(expect.any(String));
  expect(body.errorDescription).toEqual(expect.any(String));
  const rejection = await lastRejection();
  expect(rejection).toMatchObject({ status, reason });
  return { body, rejection: rejection! };
}
