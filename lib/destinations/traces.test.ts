import http from "node:http";
import type { AddressInfo } from "node:net";

import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { stopProcess } from "@/lib/lifecycle";
import { forgetProcessSingleton } from "@/lib/process-singleton";
import { startTelemetry, stopTelemetry } from "@/lib/telemetry/start";
import { tracingOn, withSpan } from "@/lib/telemetry/tracing";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { createDestination } from "./destinations";
import { deliveriesOf, LOCAL_POLICY, receiveEvent, setUpForwardingFile } from "./test-helpers";
import { forwardDueDeliveries } from "./worker";

// Traces end to end: a webhook received and forwarded to a real local destination, the spans exported over
// OTLP/HTTP (JSON) to a local collector, the traceparent the destination got checked against them.

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: OtlpValue }>;
};
type OtlpExport = {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: OtlpValue }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
};

/** A collector on 127.0.0.1 that keeps every OTLP/HTTP JSON export posted to /v1/traces. */
async function startCollector() {
  const exports: OtlpExport[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces") exports.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans: () => exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attributes = (span: OtlpSpan) =>
  Object.fromEntries(
    span.attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue]),
  );

const SECRET_QUERY = "token=dest-secret-in-query";
const USER_ID = "usr_traced_person";
const EMAIL = "traced.person@example.com";

const bed = setUpForwardingFile();
let collector: Awaited<ReturnType<typeof startCollector>>;
beforeAll(async () => {
  // This file's stops run only the hook it registers (the lifecycle is the process's, the thread shared).
  forgetProcessSingleton("lifecycle");
  collector = await startCollector();
});
afterAll(() => collector.close());
afterEach(async () => {
  await stopTelemetry();
  forgetProcessSingleton("lifecycle");
  vi.unstubAllEnvs();
  collector.exports.length = 0;
});

const drain = async () => {
  while ((await forwardDueDeliveries(LOCAL_POLICY)) > 0);
};

async function forwardOne({ drain: draining = true } = {}) {
  const connection = await insertTestConnection(`Traces ${crypto.randomUUID()}`, [KEY1]);
  const destination = await createDestination(
    { id: null, email: "admin@example.com" },
    {
      connectionId: connection.id,
      name: "Traced app",
      url: `${bed.receiver.url}?${SECRET_QUERY}`,
      signing: "service",
      eventTypes: [],
      verificationMethods: [],
    },
    LOCAL_POLICY,
  );
  if (!destination.ok) throw new Error(destination.error);
  const event = await receiveEvent(connection.token, [KEY1], { data: { userId: USER_ID, email: EMAIL } });
  if (draining) await drain();
  return { connection, destination, event, deliveries: await deliveriesOf(destination.id) };
}

describe("with the OTEL_* variables unset", () => {
  it("starts nothing, exports no span, queues no trace parent and sends no traceparent", async () => {
    // Settings that do not turn tracing on by themselves, and a collector where the SDK would send by default.
    vi.stubEnv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json");
    vi.stubEnv("OTEL_BSP_SCHEDULE_DELAY", "10");
    expect(await startTelemetry()).toBe(false);
    expect(tracingOn()).toBe(false);
    const { deliveries } = await forwardOne();
    expect(bed.receiver.received).toHaveLength(1);
    expect(bed.receiver.received[0]!.headers.traceparent).toBeUndefined();
    expect(deliveries.map((d) => d.traceParent)).toEqual([null]);
    await stopTelemetry();
    expect(collector.exports).toEqual([]);
  });
});

describe("with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set", () => {
  it("exports the store and attempt spans, the attempt a child of the store, and sends the attempt's traceparent", async () => {
    vi.stubEnv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", `${collector.url}/v1/traces`);
    vi.stubEnv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json");
    expect(await startTelemetry()).toBe(true);
    const { connection, destination, event, deliveries } = await forwardOne();
    await stopTelemetry(); // exports what the batch processor holds

    const spans = collector.spans();
    const store = spans.find((s) => s.name === "webhook.store")!;
    const attempt = spans.find((s) => s.name === "forward.attempt")!;
    expect(attributes(store)).toEqual({ "console.connection_id": connection.id, "console.outcome": "stored" });
    expect(attributes(attempt)).toEqual({
      "console.destination_id": destination.id,
      "console.attempt": 1,
      "console.outcome": "delivered",
      "http.response.status_code": 200,
      "console.destination_origin": new URL(bed.receiver.url).origin,
    });
    expect(attempt.kind).toBe(3); // SPAN_KIND_CLIENT
    expect({ trace: attempt.traceId, parent: attempt.parentSpanId }).toEqual({
      trace: store.traceId,
      parent: store.spanId,
    });
    expect(deliveries.map((d) => d.traceParent)).toEqual([`00-${store.traceId}-${store.spanId}-01`]);
    expect(bed.receiver.received[0]!.headers.traceparent).toBe(`00-${attempt.traceId}-${attempt.spanId}-01`);

    const resource = collector.exports[0]!.resourceSpans[0]!.resource;
    expect(attributes({ attributes: resource.attributes } as OtlpSpan)["service.name"]).toBe("tenant-console");
    // Nothing of the body, the person or a secret anywhere in what was exported.
    const exported = JSON.stringify(collector.exports);
    for (const secret of [USER_ID, EMAIL, SECRET_QUERY, connection.token, event.id, "/hooks", KEY1])
      expect(exported).not.toContain(secret);
  });

  it("starts a trace of its own for a delivery without a trace parent (a resend), whatever the worker's context", async () => {
    vi.stubEnv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", `${collector.url}/v1/traces`);
    vi.stubEnv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json");
    await startTelemetry();
    const { destination } = await forwardOne({ drain: false });
    await bed.db.execute(
      sql`update forward_deliveries set trace_parent = null where destination_id = ${destination.id}`,
    );
    await withSpan("worker.context", {}, drain);
    await stopTelemetry();
    const spans = collector.spans();
    const worker = spans.find((s) => s.name === "worker.context")!;
    const attempt = spans.find((s) => s.name === "forward.attempt")!;
    expect(attempt.parentSpanId ?? "").toBe("");
    expect(attempt.traceId).not.toBe(worker.traceId);
    expect(bed.receiver.received[0]!.headers.traceparent).toBe(`00-${attempt.traceId}-${attempt.spanId}-01`);
  });

  it("records a refused attempt's status and outcome", async () => {
    vi.stubEnv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", `${collector.url}/v1/traces`);
    vi.stubEnv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json");
    await startTelemetry();
    bed.receiver.answerWith(() => 503);
    await forwardOne();
    await stopProcess(Date.now() + 5_000); // the process's stop exports what the batch processor holds
    expect(tracingOn()).toBe(false);
    const attempt = collector.spans().find((s) => s.name === "forward.attempt")!;
    expect(attributes(attempt)).toMatchObject({ "console.outcome": "refused", "http.response.status_code": 503 });
  });
});
