import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { alertSummary } from "@/lib/alerts/display";
import { evaluateAlerts } from "@/lib/alerts/evaluate";
import type { AlertMeasure } from "@/lib/alerts/types";
import { alerts } from "@/lib/db/alerts-schema";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { connectionSecrets } from "@/lib/db/schema";
import { encryptSecret } from "@/lib/secrets";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { createDestination, listDestinations, rotateDestinationSecret } from "./destinations";
import { deliveriesOf, LOCAL_POLICY, receiveEvent, setUpForwardingFile } from "./test-helpers";
import { forwardDueDeliveries } from "./worker";

// "A broken secret fails alone": one destination whose secret (or whose connection's server key) cannot
// be decrypted fails its own deliveries with the reason in words, the others deliver in the same pass,
// and the "destination failing" alert opens at its next evaluation, without waiting for its threshold.

const admin = { id: null, email: "admin@example.com" };
const bed = setUpForwardingFile(async (db) => {
  await db.execute(sql`delete from alerts`);
  await db.execute(sql`delete from alert_evaluations`);
});

async function destination(connectionId: string, name: string, signing: "service" | "standard_webhooks") {
  const created = await createDestination(
    admin,
    { connectionId, name, url: `${bed.receiver.url}/${name}`, signing, eventTypes: [], verificationMethods: [] },
    LOCAL_POLICY,
  );
  if (!created.ok) throw new Error(created.error);
  return created;
}

/** Alters a sealed value as a bad restore or a hand edit would: the same form, another byte in its ciphertext. */
const corrupt = (sealed: string) => `${sealed.slice(0, -2)}${sealed.endsWith("AA") ? "BB" : "AA"}`;

async function openDestinationAlerts() {
  return (await bed.db.select().from(alerts).where(eq(alerts.kind, "destination_failing"))).filter(
    (a) => a.state === "open",
  );
}

describe("an unreadable destination secret", () => {
  it("fails only that destination's deliveries, in words, delivers the other's in the same pass, opens the alert at once, and rotating mends it", async () => {
    const connection = await insertTestConnection(`Broken secret ${crypto.randomUUID()}`, [KEY1]);
    const broken = await destination(connection.id, "Broken", "standard_webhooks");
    const healthy = await destination(connection.id, "Healthy", "standard_webhooks");
    const [row] = await bed.db.select().from(forwardDestinations).where(eq(forwardDestinations.id, broken.id));
    await bed.db
      .update(forwardDestinations)
      .set({ secretCiphertext: corrupt(row!.secretCiphertext!) })
      .where(eq(forwardDestinations.id, broken.id));
    for (let i = 0; i < 3; i++) await receiveEvent(connection.token, [KEY1]);

    // One pass takes all six deliveries in one batch: the broken one must not reject it.
    expect(await forwardDueDeliveries(LOCAL_POLICY)).toBe(6);
    expect(bed.receiver.received).toHaveLength(3);
    expect((await deliveriesOf(healthy.id)).map((d) => d.state)).toEqual(["delivered", "delivered", "delivered"]);
    const failed = await deliveriesOf(broken.id);
    expect(failed.map((d) => [d.state, d.attempts])).toEqual([
      ["pending", 1],
      ["pending", 1],
      ["pending", 1],
    ]);
    expect(failed[0]!.lastOutcome).toMatch(
      /^This destination's signing secret cannot be read \(.+\): rotate its secret on the destination's page .*re-seal the stored secrets/,
    );

    const [summary] = (await listDestinations(connection.id, "support")).filter((d) => d.name === "Broken");
    expect(summary!.health).toMatchObject({ state: "failing", signingProblem: failed[0]!.lastOutcome });
    expect(
      (await listDestinations(connection.id, "support")).find((d) => d.name === "Healthy")!.health.signingProblem,
    ).toBeNull();

    // The alert opens at the next evaluation, though the connection's threshold is 60 minutes.
    await evaluateAlerts();
    const [alert, ...others] = await openDestinationAlerts();
    expect(others).toEqual([]);
    expect(alert).toMatchObject({
      subject: broken.id,
      connectionId: connection.id,
      measure: { destinationName: "Broken", signingProblem: failed[0]!.lastOutcome },
    });
    expect(alertSummary("destination_failing", alert!.measure as AlertMeasure)).toMatch(
      /^Destination Broken cannot sign its forwards, so every attempt fails: This destination's signing secret cannot be read/,
    );

    // Rotating replaces what cannot be read (no previous secret to sign beside it) and clears the problem.
    const rotated = await rotateDestinationSecret(admin, { connectionId: connection.id, destinationId: broken.id });
    expect(rotated).toMatchObject({ ok: true, secret: expect.stringMatching(/^whsec_/) });
    const [mended] = await bed.db.select().from(forwardDestinations).where(eq(forwardDestinations.id, broken.id));
    expect(mended).toMatchObject({ signingProblem: null, previousSecretCiphertext: null });
    await bed.db.execute(sql`update forward_deliveries set due_at = now() where state = 'pending'`);
    bed.receiver.received.length = 0;
    expect(await forwardDueDeliveries(LOCAL_POLICY)).toBe(3);
    expect((await deliveriesOf(broken.id)).map((d) => d.state)).toEqual(["delivered", "delivered", "delivered"]);
  });
});

describe("an unreadable server key", () => {
  it("fails only the service destinations of that connection, in words; another connection's deliver; re-entering the key clears it", async () => {
    const brokenConnection = await insertTestConnection(`Broken key ${crypto.randomUUID()}`, [KEY1]);
    const fine = await insertTestConnection(`Fine ${crypto.randomUUID()}`, [KEY1]);
    const service = await destination(brokenConnection.id, "Service", "service");
    const standard = await destination(brokenConnection.id, "Standard", "standard_webhooks");
    const other = await destination(fine.id, "Other", "service");
    await receiveEvent(brokenConnection.token, [KEY1]);
    await receiveEvent(fine.token, [KEY1]);
    const [secret] = await bed.db
      .select()
      .from(connectionSecrets)
      .where(eq(connectionSecrets.connectionId, brokenConnection.id));
    await bed.db
      .update(connectionSecrets)
      .set({ ciphertext: corrupt(secret!.ciphertext) })
      .where(eq(connectionSecrets.connectionId, brokenConnection.id));

    expect(await forwardDueDeliveries(LOCAL_POLICY)).toBe(3);
    expect(bed.receiver.received).toHaveLength(2);
    expect((await deliveriesOf(other.id)).map((d) => d.state)).toEqual(["delivered"]);
    expect((await deliveriesOf(standard.id)).map((d) => d.state)).toEqual(["delivered"]);
    const [failed] = await deliveriesOf(service.id);
    expect(failed).toMatchObject({ state: "pending", attempts: 1 });
    expect(failed!.lastOutcome).toMatch(
      /^The connection's server key cannot be read \(.+\), so nothing can be signed as the service: enter the server key again/,
    );

    await evaluateAlerts();
    expect((await openDestinationAlerts()).map((a) => a.subject)).toEqual([service.id]);

    // The operator enters the key again: the next pass signs, and the problem is gone from the page.
    await bed.db
      .update(connectionSecrets)
      .set({ ciphertext: encryptSecret(KEY1, { connectionId: brokenConnection.id, kind: "server" }) })
      .where(eq(connectionSecrets.connectionId, brokenConnection.id));
    await bed.db.execute(sql`update forward_deliveries set due_at = now() where state = 'pending'`);
    expect(await forwardDueDeliveries(LOCAL_POLICY)).toBe(1);
    expect((await deliveriesOf(service.id)).map((d) => d.state)).toEqual(["delivered"]);
    expect((await listDestinations(brokenConnection.id, "admin")).map((d) => d.health.signingProblem)).toEqual([
      null,
      null,
    ]);
  });
});
