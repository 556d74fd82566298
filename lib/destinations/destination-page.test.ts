import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";

import { rowsOf } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { auditLog } from "@/lib/db/schema";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { TEST_EVENT_ID_PREFIX } from "@/lib/webhooks/constants";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { destinationDeliveryStats, listDestinationAttempts } from "./attempts";
import {
  createDestination,
  getDestinationDetail,
  revealDestinationSecret,
  rotateDestinationSecret,
  sendDestinationTestEvent,
  updateDestination,
} from "./destinations";
import { signersFor } from "./signers";
import { forwardHeaders } from "./signing";
import { LOCAL_POLICY, receiveEvent, setUpForwardingFile } from "./test-helpers";
import { forwardDueDeliveries } from "./worker";

// A destination's own page: its edit, its secret shown and rotated for a chosen period, its test event,
// its attempts in keyset pages and its deliveries over 24 h and 7 days.

const admin = { id: null, email: "admin@example.com" };
const bed = setUpForwardingFile();

async function standardDestination(name = "Handler") {
  const connection = await insertTestConnection(`Page ${crypto.randomUUID()}`, [KEY1]);
  const created = await createDestination(
    admin,
    {
      connectionId: connection.id,
      name,
      url: bed.receiver.url,
      signing: "standard_webhooks",
      eventTypes: [],
      verificationMethods: [],
    },
    LOCAL_POLICY,
  );
  if (!created.ok || !created.secret) throw new Error("not created");
  return {
    connection,
    id: created.id,
    secret: created.secret,
    ids: { connectionId: connection.id, destinationId: created.id },
  };
}

const auditOf = async (action: string, target: string) =>
  (await bed.db.select().from(auditLog).where(eq(auditLog.action, action))).filter((r) => r.target === target);

/** Whether the headers a destination's signer makes now verify with `secret`. */
async function verifiesWith(destinationId: string, secret: string): Promise<boolean> {
  const [row] = await bed.db.select().from(forwardDestinations).where(eq(forwardDestinations.id, destinationId));
  const signer = (await signersFor([row!])).get(destinationId)!;
  if ("problem" in signer) throw new Error(signer.problem);
  const body = '{"id":"evt"}';
  const headers = forwardHeaders(signer, "evt", body, "verified");
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

describe("editing a destination", () => {
  it("changes the URL, event types, methods and cap given, and audits each change with the URL's origin only", async () => {
    const { ids } = await standardDestination();
    const result = await updateDestination(
      admin,
      { ...ids, url: `${bed.receiver.url}/new?token=abc`, eventTypes: ["authenticator.expired"], maxPerSecond: "5" },
      LOCAL_POLICY,
    );
    expect(result).toEqual({ ok: true });
    const detail = await getDestinationDetail(ids.destinationId, "admin");
    expect(detail).toMatchObject({
      url: `${bed.receiver.url}/new?token=abc`,
      eventTypes: ["authenticator.expired"],
      verificationMethods: null,
      maxPerSecond: 5,
    });
    const [record] = await auditOf("destination.updated", "Handler");
    expect(JSON.stringify(record!.details)).not.toContain("token=abc");
    expect(record!.details).toMatchObject({ maxPerSecond: { from: null, to: 5 }, eventTypes: { from: null } });

    expect(await updateDestination(admin, { ...ids, eventTypes: null, maxPerSecond: null }, LOCAL_POLICY)).toEqual({
      ok: true,
    });
    expect(await getDestinationDetail(ids.destinationId, "admin")).toMatchObject({
      eventTypes: null,
      maxPerSecond: null,
    });
  });

  it("refuses a URL against the rules with the field to fix, and changes nothing", async () => {
    const { ids } = await standardDestination();
    const result = await updateDestination(admin, { ...ids, url: "http://hooks.example.test/in" }, LOCAL_POLICY);
    expect(result).toEqual({ ok: false, field: "url", error: "A destination URL starts with https://." });
    expect((await getDestinationDetail(ids.destinationId, "admin"))?.url).toBe(bed.receiver.url);
  });
});

describe("a destination's signing secret", () => {
  it("is revealed to the admin who asks, audited without the secret", async () => {
    const { ids, secret } = await standardDestination("Revealed");
    expect(await revealDestinationSecret(admin, ids)).toEqual({ ok: true, secret });
    const [record] = await auditOf("destination.secret_revealed", "Revealed");
    expect(JSON.stringify(record)).not.toContain(secret);
  });

  it("rotated, signs with the previous secret beside the new one for the hours picked, and with the new one only after", async () => {
    const { ids, secret: old } = await standardDestination();
    const rotated = await rotateDestinationSecret(admin, { ...ids, previousSecretHours: 2 });
    if (!rotated.ok || !rotated.secret) throw new Error("not rotated");
    expect(await verifiesWith(ids.destinationId, old)).toBe(true);
    expect(await verifiesWith(ids.destinationId, rotated.secret)).toBe(true);
    const detail = await getDestinationDetail(ids.destinationId, "admin");
    const hoursLeft = (Date.parse(detail!.previousSecretExpiresAt!) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(1.99);
    expect(hoursLeft).toBeLessThanOrEqual(2);

    // The period is over.
    await bed.db
      .update(forwardDestinations)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(forwardDestinations.id, ids.destinationId));
    expect(await verifiesWith(ids.destinationId, old)).toBe(false);
    expect(await verifiesWith(ids.destinationId, rotated.secret)).toBe(true);
  });

  it("rotated with no period, stops signing with the previous secret at once", async () => {
    const { ids, secret: old } = await standardDestination();
    const rotated = await rotateDestinationSecret(admin, { ...ids, previousSecretHours: 0 });
    if (!rotated.ok || !rotated.secret) throw new Error("not rotated");
    expect(await verifiesWith(ids.destinationId, old)).toBe(false);
    expect(await verifiesWith(ids.destinationId, rotated.secret)).toBe(true);
  });

  it("refuses a period longer than a week, in words", async () => {
    const { ids } = await standardDestination();
    expect(await rotateDestinationSecret(admin, { ...ids, previousSecretHours: 169 })).toEqual({
      ok: false,
      error: "The previous secret signs for a whole number of hours from 0 to 168.",
    });
  });
});

describe("a destination's test event", () => {
  it("arrives signed with the destination's secret and a test id, is listed among its attempts, and is audited", async () => {
    const { ids, secret } = await standardDestination("Tested");
    const result = await sendDestinationTestEvent(admin, ids, LOCAL_POLICY);
    expect(result).toMatchObject({ ok: true, delivered: true, status: 200 });
    const [received] = bed.receiver.received;
    const event = new Webhook(secret).verify(received!.body, received!.headers as Record<string, string>) as {
      id: string;
    };
    expect(event.id.startsWith(TEST_EVENT_ID_PREFIX)).toBe(true);
    const { attempts } = await listDestinationAttempts(ids.destinationId, {});
    expect(attempts).toMatchObject([{ origin: "test", ok: true, status: 200, eventId: event.id, eventRowId: null }]);
    expect(await auditOf("destination.test_sent", "Tested")).toHaveLength(1);
  });

  it("that is refused says why, and does not trip the breaker", async () => {
    const { ids } = await standardDestination();
    bed.receiver.answerWith(() => 500);
    for (let i = 0; i < 6; i++)
      expect(await sendDestinationTestEvent(admin, ids, LOCAL_POLICY)).toMatchObject({
        ok: true,
        delivered: false,
        status: 500,
        error: "answered 500",
      });
    const [row] = await bed.db.select().from(forwardDestinations).where(eq(forwardDestinations.id, ids.destinationId));
    expect(row).toMatchObject({ trippedAt: null, consecutiveFailures: 0 });
  });
});

describe("a destination's attempts", () => {
  it("are listed newest first in keyset pages, filtered by outcome, each with its event's log row", async () => {
    const { connection, ids } = await standardDestination();
    let answer = 200;
    bed.receiver.answerWith(() => answer);
    for (const status of [200, 500, 200]) {
      answer = status;
      await receiveEvent(connection.token, [KEY1]);
      await forwardDueDeliveries(LOCAL_POLICY);
    }
    const first = await listDestinationAttempts(ids.destinationId, {}, 2);
    expect(first.attempts.map((a) => a.status)).toEqual([200, 500]);
    expect(first.attempts.every((a) => a.eventRowId !== null)).toBe(true);
    const second = await listDestinationAttempts(ids.destinationId, { before: first.nextBefore! }, 2);
    expect(second).toMatchObject({ attempts: [{ status: 200 }], nextBefore: null });
    const failed = await listDestinationAttempts(ids.destinationId, { outcome: "failed" });
    expect(failed.attempts.map((a) => a.status)).toEqual([500]);
    const delivered = await listDestinationAttempts(ids.destinationId, { outcome: "delivered" });
    expect(delivered.attempts.map((a) => a.status)).toEqual([200, 200]);
  });

  it("are summed up per hour over 24 h and per day over 7 days, with the rate and p95 latency", async () => {
    const { ids } = await standardDestination();
    const now = new Date("2026-12-02T10:30:00Z");
    const [{ id: deliveryId }] = rowsOf<{ id: number }>(
      await bed.db.execute(
        sql`insert into forward_deliveries (destination_id, connection_id, event_id, state) values (${ids.destinationId}, ${ids.connectionId}, 'evt-stats', 'delivered') returning id`,
      ),
    ) as [{ id: number }];
    const attempt = (at: string, ok: boolean, latency: number) =>
      bed.db.execute(
        sql`insert into forward_attempts (delivery_id, destination_id, started_at, latency_ms, status, ok, outcome) values (${deliveryId}, ${ids.destinationId}, ${at}, ${latency}, ${ok ? 200 : 500}, ${ok}, 'x')`,
      );
    await attempt("2026-12-02T10:10:00Z", true, 100);
    await attempt("2026-12-02T09:10:00Z", false, 300);
    await attempt("2026-11-29T09:10:00Z", true, 50);
    const day = await destinationDeliveryStats(ids.destinationId, "24h", now);
    expect(day).toMatchObject({ attempts: 2, delivered: 1, successRate: 0.5 });
    expect(day.slots).toHaveLength(24);
    expect(day.slots.at(-1)).toMatchObject({ start: "2026-12-02T10:00:00.000Z", attempts: 1, p95LatencyMs: 100 });
    expect(day.slots.at(-2)).toMatchObject({ attempts: 1, delivered: 0, p95LatencyMs: 300 });
    const week = await destinationDeliveryStats(ids.destinationId, "7d", now);
    expect(week).toMatchObject({ attempts: 3, delivered: 2 });
    expect(week.slots.map((s) => s.attempts)).toEqual([0, 0, 0, 1, 0, 0, 2]);
  });
});
