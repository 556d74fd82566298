/**
 * The webhooks part of `npm run bench`: webhook ingest rate through receiveWebhook() (signature
 * verification included) and the log's default-view query time with 100k stored events, both on
 * in-memory PGlite. Results: bench/results/webhooks-latest.json (and a dated copy).
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { machine, timeRuns, writeResult } from "./support/timing";

const INGEST_EVENTS = Number(process.env.BENCH_INGEST_EVENTS ?? 3000);
const STORED_EVENTS = 100_000;
const QUERY_RUNS = 50;

export async function runWebhooksBench(): Promise<void> {
  const { installDatabase, openDatabase } = await import("@/lib/db");
  const { receiveWebhook } = await import("@/lib/webhooks/receive");
  const { listWebhookEvents } = await import("@/lib/webhooks/webhooks");
  const { eventFiltersSchema } = await import("@/lib/webhooks/filters");
  const { expiredEvent, insertTestConnection, TENANT_ID, webhookRequest } = await import("@/lib/testing/webhooks");

  const handle = await openDatabase({ kind: "pglite", dataDir: undefined });
  installDatabase(handle);
  const db = handle.db;
  const keys = ["bench_srv_current_000000000000000000001", "bench_srv_previous_00000000000000000002"];
  const connection = await insertTestConnection("Bench", keys);

  // Ingest: each request is built (and signed by the "service") before the clock starts.
  const requests = Array.from({ length: INGEST_EVENTS }, (_, i) =>
    webhookRequest(connection.token, expiredEvent({ data: { userId: `usr_ingest_${i}` } }), { keys }),
  );
  const ingestStart = performance.now();
  for (const request of requests) {
    const response = await receiveWebhook(request);
    if (response.status !== 200) throw new Error(`ingest got ${response.status}: ${await response.text()}`);
  }
  const ingestSeconds = (performance.now() - ingestStart) / 1000;

  // 100k stored events spread over 30 days, then the log's default view and two filtered views.
  const fillStart = performance.now();
  await db.execute(sql`
    insert into webhook_events (connection_id, event_id, type, tenant_id, envelope_time, first_received_at, last_received_at,
      signature_status, raw_body, user_id, verification_method, expires_at, user_authenticator_id, device_name, device_platform)
    select ${connection.id}::uuid, 'bulk-' || g, 'authenticator.expired', ${TENANT_ID}, now(),
      now() - (g * 26 || ' seconds')::interval, now(), 'verified_key1', '{"bulk":' || g || '}', 'usr_' || (g % 5000),
      (array['PUSH','SMS','EMAIL_OTP','PASSKEY'])[1 + g % 4], now() - (g * 26 + 600 || ' seconds')::interval, 'ua_' || g,
      'Device ' || (g % 100), (array['IOS','ANDROID'])[1 + g % 2]
    from generate_series(1, ${STORED_EVENTS}) g`);
  await db.execute(sql`analyze webhook_events`);
  const fillSeconds = (performance.now() - fillStart) / 1000;

  const defaults = eventFiltersSchema.parse({});
  const firstPage = await listWebhookEvents(defaults, "support");
  const defaultView = await timeRuns(QUERY_RUNS, () => listWebhookEvents(defaults, "support"));
  const secondPage = await timeRuns(QUERY_RUNS, () => listWebhookEvents({ ...defaults, cursor: firstPage.nextCursor! }, "support"));
  const userPrefix = await timeRuns(QUERY_RUNS, () =>
    listWebhookEvents(eventFiltersSchema.parse({ userId: "usr_42", userIdMatch: "prefix" }), "support"),
  );
  const methodAndPlatform = await timeRuns(QUERY_RUNS, () =>
    listWebhookEvents(eventFiltersSchema.parse({ verificationMethod: "SMS", devicePlatform: "ANDROID" }), "support"),
  );

  const results = {
    at: new Date().toISOString(),
    machine: machine("PGlite (in memory)"),
    ingest: {
      events: INGEST_EVENTS,
      seconds: Math.round(ingestSeconds * 100) / 100,
      eventsPerSecond: Math.round(INGEST_EVENTS / ingestSeconds),
      notes: "sequential receiveWebhook() calls: token lookup, key decryption, HMAC over two keys, zod validation, insert",
    },
    query: {
      storedEvents: STORED_EVENTS + INGEST_EVENTS,
      fillSeconds: Math.round(fillSeconds * 10) / 10,
      pageSize: defaults.limit,
      defaultView,
      secondPageByCursor: secondPage,
      userIdPrefix: userPrefix,
      methodAndPlatform,
    },
  };
  const json = writeResult("webhooks-latest", results);
  fs.writeFileSync(path.resolve("bench/results", `webhooks-${results.at.slice(0, 10)}.json`), json);
  console.log(json);
  console.log(
    `\nIngest: ${results.ingest.eventsPerSecond} events/s. Default view with ${results.query.storedEvents} events: ` +
      `p50 ${defaultView.p50Ms} ms, p95 ${defaultView.p95Ms} ms.`,
  );
  await handle.close();
}
