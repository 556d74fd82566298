/**
 * Shared fixtures for the overview's tests (not a test file itself): a database with three connections, rows written
 * straight into it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll } from "vitest";

import type { RunningEmulator } from "@/emulator/server";
import type { Database } from "@/lib/db";
import { webhookEvents, webhookRejections } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { startTestEmulator } from "@/lib/testing/emulator";
import { insertTestConnection, TENANT_ID } from "@/lib/testing/webhooks";
import { TEST_EVENT_ID_PREFIX } from "@/lib/webhooks/constants";
import { ensureEventPartitions } from "@/lib/webhooks/partitions";

// Noon and a half, a Sunday; the 7-day charts end in this hour and this UTC day.
export const now = new Date("2025-06-08T12:30:00.000Z");
export const ago = (ms: number) => new Date(now.getTime() - ms);
export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

export type OverviewFixture = {
  db: Database;
  /** A server key: events verified, then bad signatures. */
  acme: string;
  /** No server key: events stored unsigned. */
  globex: string;
  /** Nothing received, ever. */
  initech: string;
};

const fixture = {} as OverviewFixture;
let seq = 0;

/**
 * The test file's database and emulator, set up before its tests and torn down after: a fresh database
 * with the connections Acme, Globex and Initech, and an emulator whose Canada region accepts connections
 * and never answers. The fixture's fields are filled once the file's beforeAll ran.
 */
export function overviewFixture(): Readonly<OverviewFixture> {
  let tearDown: () => Promise<void>;
  let emulator: RunningEmulator;
  // The Canada region of this file: it accepts connections and never answers.
  const silent = http.createServer(() => {});

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    process.env.SERVICE_BASE_URL_CA = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
    let db: Database;
    ({ db, tearDown } = await setUpTestDatabase());
    fixture.db = db;
    // Events are inserted straight into the table here: their months' partitions first.
    await ensureEventPartitions(new Date("2025-05-01T00:00:00Z"), now);
    fixture.acme = (await insertTestConnection("Acme", ["srv_key_acme_0001"])).id;
    fixture.globex = (await insertTestConnection("Globex")).id;
    fixture.initech = (await insertTestConnection("Initech")).id;
  });
  afterAll(async () => {
    await tearDown();
    await emulator.close();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });
  return fixture;
}

export type EventSeed = {
  connectionId?: string;
  receivedAt: Date;
  method?: string | null;
  expiresAt?: Date | null;
  isTest?: boolean;
  type?: string;
  signatureStatus?: string;
  userId?: string;
};

export async function insertEvents(...seeds: EventSeed[]): Promise<number[]> {
  const rows = await fixture.db
    .insert(webhookEvents)
    .values(
      seeds.map((s) => {
        const eventId = `${s.isTest ? TEST_EVENT_ID_PREFIX : "evt-"}${++seq}`;
        return {
          connectionId: s.connectionId ?? fixture.acme,
          eventId,
          type: s.type ?? "authenticator.expired",
          tenantId: TENANT_ID,
          envelopeTime: s.receivedAt,
          firstReceivedAt: s.receivedAt,
          lastReceivedAt: s.receivedAt,
          signatureStatus: s.signatureStatus ?? "verified_key1",
          rawBody: JSON.stringify({ id: eventId }),
          isTest: s.isTest ?? false,
          userId: s.userId ?? `usr_${seq}`,
          verificationMethod: s.method === undefined ? "PUSH" : s.method,
          expiresAt: s.expiresAt === undefined ? new Date(s.receivedAt.getTime() - 5_000) : s.expiresAt,
        };
      }),
    )
    .returning({ id: webhookEvents.id });
  return rows.map((r) => r.id);
}

export async function insertRejections(
  ...seeds: Array<{ connectionId?: string | null; receivedAt: Date; reason: string; eventId?: string }>
) {
  await fixture.db.insert(webhookRejections).values(
    seeds.map((s) => ({
      connectionId: s.connectionId === undefined ? fixture.acme : s.connectionId,
      receivedAt: s.receivedAt,
      status: 401,
      reason: s.reason,
      eventId: s.eventId ?? null,
      bodySha256: "0".repeat(64),
      headers: {},
    })),
  );
}

/** Empties the event tables between describe blocks, so each states its own data. */
export async function clearEvents() {
  await fixture.db.delete(webhookEvents);
  await fixture.db.delete(webhookRejections);
}
