import { Webhook as ServiceWebhook } from "@authsignal/node";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { forwardDeliveries, forwardDestinations } from "@/lib/db/forwarding-schema";
import { auditLog, connectionSecrets } from "@/lib/db/schema";
import { encryptSecret, fingerprint } from "@/lib/secrets";
import { expiredEvent, insertTestConnection } from "@/lib/testing/webhooks";
import { storeEvent } from "@/lib/webhooks/store";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { SERVICE_SIGNING_TAKES_ONLY_VERIFIED, VERIFICATION_HEADER } from "./constants";
import { createDestination, listDestinations, setDestinationRate } from "./destinations";
import { listEventForwards, resendEvent } from "./event-forwards";
import { deliveriesOf, LOCAL_POLICY, receiveEvent, setUpForwardingFile } from "./test-helpers";
import { mayForward, whyNotForwarded } from "./verdict";
import { forwardDueDeliveries } from "./worker";

// "Never vouch for what was not verified": an event stored `unsigned` (its connection held no server
// key, so anyone with the URL could have posted it) is never signed as the service, live, by Resend or
// at send time, and reaches a Standard Webhooks destination only when its admin asked, marked so.

const admin = { id: null, email: "admin@example.com" };
const bed = setUpForwardingFile();

async function drain() {
  while ((await forwardDueDeliveries(LOCAL_POLICY)) > 0);
}

/** The admin enters the server key after the connection stored unsigned events (the issue's scenario). */
async function addServerKey(connectionId: string, key: string) {
  await bed.db.insert(connectionSecrets).values({
    connectionId,
    kind: "server",
    ciphertext: encryptSecret(key, { connectionId, kind: "server" }),
    last4: fingerprint(key),
  });
}

async function destination(
  connectionId: string,
  name: string,
  input: Partial<Parameters<typeof createDestination>[1]> = {},
) {
  const created = await createDestination(
    admin,
    {
      connectionId,
      name,
      url: bed.receiver.url,
      signing: "service",
      eventTypes: [],
      verificationMethods: [],
      ...input,
    },
    LOCAL_POLICY,
  );
  if (!created.ok) throw new Error(created.error);
  return created;
}

const SIGNINGS = ["service", "standard_webhooks"] as const;
const STATUSES = ["verified_key1", "verified_key2", "unsigned"] as const;

describe("the rule, in one place", () => {
  it("queueing (SQL in lib/webhooks/store.ts) agrees with mayForward for every signing mode, choice and signature status", async () => {
    const connection = await insertTestConnection(`Rule ${crypto.randomUUID()}`, [KEY1]);
    // Written directly: the form refuses "service + include unverified", but a row may hold it, and the SQL must still
    // refuse.
    const rows = await bed.db
      .insert(forwardDestinations)
      .values(
        SIGNINGS.flatMap((signing) =>
          [false, true].map((includeUnverified) => ({
            connectionId: connection.id,
            name: `${signing} ${includeUnverified}`,
            url: bed.receiver.url,
            signing,
            includeUnverified,
          })),
        ),
      )
      .returning();
    const events = new Map<string, string>();
    for (const status of STATUSES) {
      const event = expiredEvent();
      await storeEvent({
        connectionId: connection.id,
        envelope: event as never,
        data: event.data as never,
        rawBody: JSON.stringify(event),
        signatureStatus: status,
        receivedAt: new Date(),
      });
      events.set(event.id, status);
    }
    for (const row of rows) {
      const queued = (await deliveriesOf(row.id)).map((d) => events.get(d.eventId)).sort();
      const expected = STATUSES.filter((status) => mayForward(row.signing, row.includeUnverified, status)).sort();
      expect({ destination: row.name, queued }).toEqual({ destination: row.name, queued: expected });
    }
    // And the rule itself: only a Standard Webhooks destination that asked gets the unverified one.
    expect(rows.filter((r) => mayForward(r.signing, r.includeUnverified, "unsigned")).map((r) => r.name)).toEqual([
      "standard_webhooks true",
    ]);
  });
});

describe("an event the console could not verify", () => {
  it("is never queued, resent or sent to a destination signing as the service once the key is added; the drawer says why", async () => {
    const connection = await insertTestConnection(`No key ${crypto.randomUUID()}`);
    const event = await receiveEvent(connection.token, []);
    await addServerKey(connection.id, KEY1);
    const service = await destination(connection.id, "As the service");
    const standard = await destination(connection.id, "Strict", { signing: "standard_webhooks" });

    const refusal = await resendEvent(admin, {
      connectionId: connection.id,
      destinationId: service.id,
      eventId: event.id,
    });
    expect(refusal).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^Not sent to As the service: the console could not verify this event's signature .* signs as the service/,
      ),
    });
    expect(refusal.ok === false && refusal.error).toMatch(/Include events the console could not verify/);
    expect(
      await resendEvent(admin, { connectionId: connection.id, destinationId: standard.id, eventId: event.id }),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/does not take unverified events/),
    });
    expect(await deliveriesOf(service.id)).toEqual([]);
    expect(
      await bed.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "destination.resent"), eq(auditLog.connectionId, connection.id))),
    ).toEqual([]);

    const forwards = await listEventForwards(connection.id, event.id, "support");
    expect(forwards.map((f) => [f.destinationName, f.notForwarded])).toEqual([
      [
        "As the service",
        expect.stringMatching(
          /^Not forwarded: the console could not verify .* this destination signs as the service: its signature would vouch/,
        ),
      ],
      ["Strict", expect.stringMatching(/^Not forwarded: .* this destination does not take unverified events\.$/)],
    ]);
  });

  it("a delivery of it already queued to a service destination (a row from before the rule) is failed for good at send time, in words, and nothing is sent", async () => {
    const connection = await insertTestConnection(`Old row ${crypto.randomUUID()}`);
    const event = await receiveEvent(connection.token, []);
    await addServerKey(connection.id, KEY1);
    const service = await destination(connection.id, "Tenant app");
    await bed.db
      .insert(forwardDeliveries)
      .values({ destinationId: service.id, connectionId: connection.id, eventId: event.id, origin: "replay" });
    await drain();
    expect(bed.receiver.received).toEqual([]);
    expect(await deliveriesOf(service.id)).toMatchObject([
      { state: "failed", attempts: 1, lastOutcome: expect.stringMatching(/^not sent: the console could not verify/) },
    ]);
    expect(whyNotForwarded("service", true, "unsigned")).toMatch(/signs as the service/);
  });

  it("reaches a Standard Webhooks destination that asked for it, live and by Resend, marked webhook-verification: unsigned", async () => {
    const connection = await insertTestConnection(`Included ${crypto.randomUUID()}`);
    const included = await destination(connection.id, "Everything", {
      signing: "standard_webhooks",
      includeUnverified: true,
    });
    const strict = await destination(connection.id, "Verified only", { signing: "standard_webhooks" });
    const event = await receiveEvent(connection.token, []);
    expect(await deliveriesOf(strict.id)).toEqual([]);
    await drain();
    expect(bed.receiver.received.map((r) => [r.headers["webhook-id"], r.headers[VERIFICATION_HEADER]])).toEqual([
      [event.id, "unsigned"],
    ]);
    expect(
      await resendEvent(admin, { connectionId: connection.id, destinationId: included.id, eventId: event.id }),
    ).toEqual({ ok: true });
    await drain();
    expect(bed.receiver.received.map((r) => r.headers[VERIFICATION_HEADER])).toEqual(["unsigned", "unsigned"]);
  });
});

describe("a verified event", () => {
  it("carries webhook-verification: verified in both modes, and a console test event can still be resent to a service destination", async () => {
    const connection = await insertTestConnection(`Signed ${crypto.randomUUID()}`, [KEY1]);
    await destination(connection.id, "Service");
    await destination(connection.id, "Standard", { signing: "standard_webhooks" });
    await receiveEvent(connection.token, [KEY1]);
    await drain();
    expect(bed.receiver.received.map((r) => r.headers[VERIFICATION_HEADER])).toEqual(["verified", "verified"]);

    // "Send a test event" signs with the server key, so the receiver stores it verified: Resend takes it.
    bed.receiver.received.length = 0;
    const test = await receiveEvent(connection.token, [KEY1], { id: `console-test-${crypto.randomUUID()}` });
    const [service] = await listDestinations(connection.id, "admin");
    expect(
      await resendEvent(admin, { connectionId: connection.id, destinationId: service!.id, eventId: test.id }),
    ).toEqual({ ok: true });
    await drain();
    expect(bed.receiver.received).toHaveLength(1);
    expect(bed.receiver.received[0]!.headers[VERIFICATION_HEADER]).toBe("verified");
    expect(
      new ServiceWebhook(KEY1).constructEvent(
        bed.receiver.received[0]!.body,
        String(bed.receiver.received[0]!.headers["x-signature-v2"]),
      ).id,
    ).toBe(test.id);
  });
});

describe("the destination's choices", () => {
  it("refuses unverified events for a service destination, keeps a rate cap within 1..10000, and changes it audited", async () => {
    const connection = await insertTestConnection(`Choices ${crypto.randomUUID()}`, [KEY1]);
    const add = (input: Partial<Parameters<typeof createDestination>[1]>) =>
      createDestination(
        admin,
        {
          connectionId: connection.id,
          name: "Hook",
          url: bed.receiver.url,
          signing: "service",
          eventTypes: [],
          verificationMethods: [],
          ...input,
        },
        LOCAL_POLICY,
      );
    expect(await add({ includeUnverified: true })).toEqual({
      ok: false,
      error: SERVICE_SIGNING_TAKES_ONLY_VERIFIED,
      field: "includeUnverified",
    });
    for (const bad of ["0", "10001", "2.5", "fast", -3])
      expect(await add({ maxPerSecond: bad })).toMatchObject({
        ok: false,
        field: "maxPerSecond",
        error: expect.stringMatching(/whole number from 1 to 10000/),
      });

    const capped = await add({ signing: "standard_webhooks", includeUnverified: true, maxPerSecond: "25" });
    const open = await add({ name: "Open", maxPerSecond: "" });
    if (!capped.ok || !open.ok) throw new Error("not created");
    expect(
      (await listDestinations(connection.id, "support")).map((d) => [d.name, d.includeUnverified, d.maxPerSecond]),
    ).toEqual([
      ["Hook", true, 25],
      ["Open", false, null],
    ]);

    const ids = { connectionId: connection.id, destinationId: capped.id };
    expect(await setDestinationRate(admin, { ...ids, maxPerSecond: "abc" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/whole number/),
    });
    expect(await setDestinationRate(admin, { ...ids, maxPerSecond: 5 })).toEqual({ ok: true });
    expect(await setDestinationRate(admin, { ...ids, maxPerSecond: "" })).toEqual({ ok: true });
    const audits = await bed.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "destination.rate_changed"), eq(auditLog.connectionId, connection.id)))
      .orderBy(auditLog.id);
    expect(audits.map((a) => [a.target, a.details])).toEqual([
      ["Hook", { from: 25, to: 5 }],
      ["Hook", { from: 5, to: null }],
    ]);
    expect((await listDestinations(connection.id, "admin"))[0]!.maxPerSecond).toBeNull();
  });
});
