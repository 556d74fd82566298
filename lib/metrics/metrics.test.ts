import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";

import { alerts } from "@/lib/db/alerts-schema";
import { createDestination } from "@/lib/destinations/destinations";
import { LOCAL_POLICY, receiveEvent, setUpForwardingFile } from "@/lib/destinations/test-helpers";
import { forwardDueDeliveries } from "@/lib/destinations/worker";
import { expiredEvent, insertTestConnection, webhookRequest } from "@/lib/testing/webhooks";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { scrapeMetrics } from "./metrics";

// The metrics move with real traffic: webhooks through the receiver, forwards to a local destination
// through a worker pass, and the gauges read from the same database.

const bed = setUpForwardingFile();

/**
 * The scrape as a real parser reads it: the sum of a metric's samples with `labels` (0 when none has), a histogram's
 * by its `_count` samples, read a second time untyped (the parser folds a labelled histogram's series into one).
 */
async function scrape() {
  const { body } = await scrapeMetrics();
  const typed = parsePrometheusTextFormat(body);
  const untyped = parsePrometheusTextFormat(body.replace(/^# TYPE \S+ histogram$/gm, ""));
  const value = (name: string, labels: Record<string, string> = {}) => {
    const declared = typed.find((f: ParsedFamily) => f.name === name);
    if (!declared) throw new Error(`${name} is not in the scrape`);
    // Untyped, each series' _count line is a family of its own (none while nothing was observed).
    const samples =
      declared.type === "HISTOGRAM"
        ? untyped.filter((f) => f.name === `${name}_count`).flatMap((f) => f.metrics)
        : declared.metrics;
    const matching = samples.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
    return matching.reduce((sum, m) => sum + Number("value" in m ? m.value : NaN), 0);
  };
  return { body, value };
}

const drain = async () => {
  while ((await forwardDueDeliveries(LOCAL_POLICY)) > 0);
};

async function destinationFor(name: string) {
  const connection = await insertTestConnection(`Metrics ${crypto.randomUUID()}`, [KEY1]);
  const created = await createDestination(
    { id: null, email: "admin@example.com" },
    {
      connectionId: connection.id,
      name,
      url: bed.receiver.url,
      signing: "service",
      eventTypes: [],
      verificationMethods: [],
    },
    LOCAL_POLICY,
  );
  if (!created.ok) throw new Error(created.error);
  return { connection, destinationId: created.id };
}

describe("the receiver's metrics", () => {
  it("count each answer by connection and outcome, refusals by reason, and time them; every batch is measured", async () => {
    const connection = await insertTestConnection(`Metrics ${crypto.randomUUID()}`, [KEY1]);
    const before = await scrape();
    const event = await receiveEvent(connection.token, [KEY1]);
    await receiveEvent(connection.token, [KEY1], event);
    await receiveEvent(connection.token, [KEY1], { ...event, data: { ...event.data, deviceName: "another body" } });
    expect(
      (
        await receiveWebhook(
          webhookRequest(connection.token, expiredEvent(), { keys: ["a-key-the-connection-does-not-hold"] }),
        )
      ).status,
    ).toBe(401);
    expect((await receiveWebhook(webhookRequest("unknownunknownunknown", expiredEvent()))).status).toBe(404);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string> = {}) =>
      after.value(name, labels) - before.value(name, labels);
    const received = (outcome: string, connectionId = connection.id) =>
      moved("tenant_console_webhooks_received_total", { connection_id: connectionId, outcome });
    expect([
      received("stored"),
      received("duplicate"),
      received("conflicting"),
      received("refused"),
      received("failed"),
    ]).toEqual([1, 1, 1, 1, 0]);
    expect(received("refused", "")).toBe(1);
    const refusals = (reason: string, connectionId = connection.id) =>
      moved("tenant_console_webhook_refusals_total", { connection_id: connectionId, reason });
    expect([refusals("bad_signature"), refusals("conflicting_redelivery"), refusals("unknown_token", "")]).toEqual([
      1, 1, 1,
    ]);
    expect(moved("tenant_console_webhook_receive_duration_seconds", { outcome: "accepted" })).toBe(3);
    expect(moved("tenant_console_webhook_receive_duration_seconds", { outcome: "refused" })).toBe(2);
    expect(moved("tenant_console_webhook_store_batch_rows")).toBe(3);
  });
});

describe("forwarding's metrics", () => {
  it("count forwards by destination and outcome, time stored to delivered, and read the backlog, states and alerts from the database", async () => {
    const { connection, destinationId } = await destinationFor("Tenant app");
    const before = await scrape();
    await receiveEvent(connection.token, [KEY1], { data: { email: "jane@example.com", phoneNumber: "+15555550123" } });
    await receiveEvent(connection.token, [KEY1]);

    const queued = await scrape();
    expect(queued.value("tenant_console_outbox_pending_deliveries", { destination_id: destinationId })).toBe(2);
    expect(
      queued.value("tenant_console_outbox_oldest_due_age_seconds", { destination_id: destinationId }),
    ).toBeGreaterThanOrEqual(0);
    expect(
      queued.value("tenant_console_destination_info", {
        destination_id: destinationId,
        connection_id: connection.id,
        name: "Tenant app",
      }),
    ).toBe(1);
    expect(queued.value("tenant_console_destination_state", { destination_id: destinationId, state: "on" })).toBe(1);
    expect(queued.value("tenant_console_destination_state", { destination_id: destinationId, state: "tripped" })).toBe(
      0,
    );

    await drain();
    bed.receiver.answerWith(() => 500);
    await receiveEvent(connection.token, [KEY1]);
    await drain();
    await bed.db.insert(alerts).values({
      connectionId: connection.id,
      kind: "destination_failing",
      subject: destinationId,
      openedAt: new Date(),
      lastSeenAt: new Date(),
      measure: {},
    });

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(moved("tenant_console_forwards_total", { destination_id: destinationId, outcome: "delivered" })).toBe(2);
    expect(moved("tenant_console_forwards_total", { destination_id: destinationId, outcome: "retrying" })).toBe(1);
    expect(
      moved("tenant_console_stored_to_delivered_seconds", { destination_id: destinationId, origin: "receipt" }),
    ).toBe(2);
    expect(after.value("tenant_console_outbox_pending_deliveries", { destination_id: destinationId })).toBe(1);
    expect(after.value("tenant_console_alerts_open", { kind: "destination_failing" })).toBe(1);
    expect(after.value("tenant_console_alerts_open", { kind: "silence" })).toBe(0);
    expect(after.value("tenant_console_connection_info", { connection_id: connection.id, region: "us" })).toBe(1);
    // The pool's figures are PostgreSQL's; PGlite has none to give.
    expect(after.body.includes("tenant_console_db_pool_clients{")).toBe(Boolean(process.env.DATABASE_URL));
    // Ids and names only: nothing of an event's body reaches a label.
    for (const secret of ["jane@example.com", "+15555550123", "usr_alice", KEY1])
      expect(after.body).not.toContain(secret);
  });
});
