import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { minutesAfter, refuseBadSignatures } from "@/lib/alerts/test-helpers";
import type { Role } from "@/lib/auth/roles";
import { installDatabase, type DatabaseHandle } from "@/lib/db";
import { createDestination } from "@/lib/destinations/destinations";
import { continueReplays, startReplay } from "@/lib/destinations/replay";
import { LOCAL_POLICY, startReceiver } from "@/lib/destinations/test-helpers";
import { forwardDueDeliveries } from "@/lib/destinations/worker";
import { markStarted } from "@/lib/lifecycle";
import { forgetProcessSingleton } from "@/lib/process-singleton";
import { setUpTestDatabase, unreachableDatabase } from "@/lib/testing/database";
import { expiredEvent, insertTestConnection, webhookRequest } from "@/lib/testing/webhooks";
import { createApiToken } from "@/lib/tokens/tokens";
import { KEY1, KEY2 } from "@/lib/webhooks/test-helpers";

import * as alerts from "./alerts/route";
import * as endUser from "./end-users/[userId]/route";
import * as health from "./health/route";
import * as metrics from "./metrics/route";
import * as openapi from "./openapi.json/route";
import * as ready from "./ready/route";
import * as replay from "./replays/[id]/route";
import { document, expectDocumented, get, params, seen, url, WRITES_CHECKED_APART } from "./test-helpers";
import * as forwards from "./webhook-events/[id]/forwards/route";
import * as event from "./webhook-events/[id]/route";
import * as exported from "./webhook-events/export/route";
import * as events from "./webhook-events/route";
import * as rejections from "./webhook-rejections/route";
import * as receiver from "./webhooks/[[...path]]/route";

// Contract tests: the real handlers on a real, seeded database answer what the OpenAPI document says,
// status, content type and body (checked with ajv against the document's own schemas). Only the session is
// stood in for, as lib/alerts/api.test.ts does.

const session = vi.hoisted(() => ({ role: "support" as Role | null }));
vi.mock("@/lib/auth/guards", async (original) => {
  const guards = await original<typeof import("@/lib/auth/guards")>();
  return {
    ...guards,
    // The role it needs, wherever it stands among the arguments (the request may come first).
    authenticateApi: async (...args: unknown[]) => {
      const role = args.includes("admin") ? "admin" : "support";
      if (!session.role) return guards.apiError(401, "unauthorized", "Sign in to use this API.");
      if (role === "admin" && session.role !== "admin")
        return guards.apiError(403, "forbidden", "This API needs the admin role.");
      // A console user's id is a UUID: an erasure records it as its audit record's actor.
      return { id: "00000000-0000-4000-8000-0000000000a1", email: "u@example.com", name: "U", role: session.role };
    },
  };
});

const erase = (userId: string, query = "") =>
  endUser.DELETE(
    new Request(url(`/api/end-users/${encodeURIComponent(userId)}${query}`), { method: "DELETE" }),
    params({ userId }),
  );

let tearDown: () => Promise<void>;
let handle: DatabaseHandle;
let handler: Awaited<ReturnType<typeof startReceiver>>;
let acme: { id: string; token: string };
let eventRowId: number;
let replayId: string;

beforeAll(async () => {
  ({ tearDown, handle } = await setUpTestDatabase());
  handler = await startReceiver();
  acme = await insertTestConnection("Acme", [KEY1]);
  const admin = { id: null, email: "admin@example.com" };
  const destination = await createDestination(
    admin,
    {
      connectionId: acme.id,
      name: "Handler",
      url: handler.url,
      signing: "service",
      eventTypes: [],
      verificationMethods: [],
    },
    LOCAL_POLICY,
  );
  if (!destination.ok) throw new Error(destination.error);
  for (const data of [{ email: "alice@example.com" }, { phoneNumber: "+15555550100" }, {}]) {
    const response = await receiver.POST(
      webhookRequest(acme.token, expiredEvent({ data }), { keys: [KEY1] }),
      params({ path: [acme.token] }),
    );
    expect(response.status).toBe(200);
  }
  while ((await forwardDueDeliveries(LOCAL_POLICY)) > 0);
  const started = await startReplay(admin, { connectionId: acme.id, destinationId: destination.id, filters: "" });
  if (!started.ok) throw new Error(started.error);
  replayId = started.replayId;
  await continueReplays();
  const t0 = new Date(Date.now() - 60 * 60_000);
  await refuseBadSignatures(acme.token, t0, 5, KEY2);
  await evaluateAlerts({ now: minutesAfter(t0, 1) });
});
afterAll(async () => {
  await handler.close();
  await tearDown();
});

describe.each(["admin", "support"] as const)("the API as %s answers what the document says", (role) => {
  beforeAll(() => {
    session.role = role;
  });

  it("lists, reads and exports the webhook log", async () => {
    const page = (await expectDocumented(
      "get",
      "/api/webhook-events",
      await events.GET(get("/api/webhook-events?limit=2")),
    )) as { events: Array<{ id: number }>; nextCursor: string };
    expect(page.events).toHaveLength(2);
    await expectDocumented(
      "get",
      "/api/webhook-events",
      await events.GET(get(`/api/webhook-events?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`)),
    );
    await expectDocumented("get", "/api/webhook-events", await events.GET(get("/api/webhook-events?limit=0")));
    eventRowId = page.events[0]!.id;
    await expectDocumented(
      "get",
      "/api/webhook-events/{id}",
      await event.GET(get(`/api/webhook-events/${eventRowId}`), params({ id: String(eventRowId) })),
    );
    await expectDocumented(
      "get",
      "/api/webhook-events/{id}",
      await event.GET(get("/api/webhook-events/abc"), params({ id: "abc" })),
    );
    await expectDocumented(
      "get",
      "/api/webhook-events/{id}",
      await event.GET(get("/api/webhook-events/999999"), params({ id: "999999" })),
    );
    const csv = await expectDocumented(
      "get",
      "/api/webhook-events/export",
      await exported.GET(get("/api/webhook-events/export?userId=usr_alice")),
    );
    expect(String(csv).split("\r\n").filter(Boolean)).toHaveLength(4);
    const ndjson = await expectDocumented(
      "get",
      "/api/webhook-events/export",
      await exported.GET(get("/api/webhook-events/export?format=ndjson")),
    );
    expect(String(ndjson).trim().split("\n")).toHaveLength(3);
    await expectDocumented(
      "get",
      "/api/webhook-events/export",
      await exported.GET(get("/api/webhook-events/export?format=xml")),
    );
  });

  it("lists and exports the refusals", async () => {
    const page = (await expectDocumented(
      "get",
      "/api/webhook-rejections",
      await rejections.GET(get("/api/webhook-rejections")),
    )) as { rejections: unknown[] };
    expect(page.rejections.length).toBeGreaterThan(0);
    await expectDocumented(
      "get",
      "/api/webhook-rejections",
      await rejections.GET(get("/api/webhook-rejections?format=csv")),
    );
    await expectDocumented(
      "get",
      "/api/webhook-rejections",
      await rejections.GET(get("/api/webhook-rejections?reason=nope")),
    );
  });

  it("shows an event's forwards and a replay's progress (admins only)", async () => {
    const answer = (await expectDocumented(
      "get",
      "/api/webhook-events/{id}/forwards",
      await forwards.GET(get("/"), params({ id: String(eventRowId) })),
    )) as {
      destinations: Array<{ deliveries: unknown[] }>;
    };
    expect(answer.destinations[0]!.deliveries.length).toBeGreaterThan(0);
    await expectDocumented(
      "get",
      "/api/webhook-events/{id}/forwards",
      await forwards.GET(get("/"), params({ id: "-1" })),
    );
    await expectDocumented(
      "get",
      "/api/webhook-events/{id}/forwards",
      await forwards.GET(get("/"), params({ id: "999999" })),
    );
    const progress = await replay.GET(get("/"), params({ id: replayId }));
    expect(progress.status).toBe(role === "admin" ? 200 : 403);
    await expectDocumented("get", "/api/replays/{id}", progress);
    await expectDocumented("get", "/api/replays/{id}", await replay.GET(get("/"), params({ id: crypto.randomUUID() })));
  });

  it("lists the alerts", async () => {
    const page = (await expectDocumented("get", "/api/alerts", await alerts.GET(get("/api/alerts")))) as {
      total: number;
    };
    expect(page.total).toBeGreaterThan(0);
    await expectDocumented("get", "/api/alerts", await alerts.GET(get("/api/alerts?state=closed")));
  });

  it("erases an end user's data (admins only), and names what it refuses", async () => {
    // A user of whom the console holds nothing: the erasure of the other tests' user would change what they read.
    const erased = await erase("usr_contract_nobody", `?connectionId=${acme.id}`);
    expect(erased.status).toBe(role === "admin" ? 200 : 403);
    await expectDocumented("delete", "/api/end-users/{userId}", erased);
    if (role === "support") return;
    await expectDocumented(
      "delete",
      "/api/end-users/{userId}",
      await erase("usr_contract_nobody", "?connectionId=nope"),
    );
    await expectDocumented(
      "delete",
      "/api/end-users/{userId}",
      await erase("usr_contract_nobody", `?connectionId=${crypto.randomUUID()}`),
    );
    expect([...seen.get("delete /api/end-users/{userId}")!].sort()).toEqual([200, 400, 404]);
  });
});

describe("without a session", () => {
  beforeAll(() => {
    session.role = null;
  });

  it("the API answers 401; health and readiness (200, and 503), the document and the receiver need none", async () => {
    await expectDocumented("get", "/api/webhook-events", await events.GET(get("/api/webhook-events")));
    await expectDocumented("get", "/api/alerts", await alerts.GET(get("/api/alerts")));
    await expectDocumented("get", "/api/replays/{id}", await replay.GET(get("/"), params({ id: replayId })));
    await expectDocumented("delete", "/api/end-users/{userId}", await erase("usr_contract_nobody"));
    await expectDocumented("get", "/api/health", await health.GET());
    const gone = await unreachableDatabase();
    installDatabase(gone);
    try {
      await expectDocumented("get", "/api/health", await health.GET());
    } finally {
      installDatabase(handle);
      await gone.close();
    }
    expect([...seen.get("get /api/health")!].sort()).toEqual([200, 503]);
    await expectDocumented("get", "/api/ready", await ready.GET()); // starting
    markStarted();
    await expectDocumented("get", "/api/ready", await ready.GET());
    forgetProcessSingleton("lifecycle");
    expect([...seen.get("get /api/ready")!].sort()).toEqual([200, 503]);
    await expectDocumented("get", "/api/openapi.json", openapi.GET());
  });

  it("metrics answer a token with the metrics scope, 403 to one without it, 401 to none (never a session)", async () => {
    const operator = { actor: { id: null, email: null }, user: null };
    const scrape = (secret?: string) =>
      metrics.GET(
        secret
          ? new Request(url("/api/metrics"), { headers: { authorization: `Bearer ${secret}` } })
          : get("/api/metrics"),
      );
    const [monitoring, script] = await Promise.all([
      createApiToken(operator, { name: "Monitoring", role: "support", scopes: ["metrics"] }),
      createApiToken(operator, { name: "Script", role: "support", scopes: ["api"] }),
    ]);
    if (!monitoring.ok || !script.ok) throw new Error("token not created");
    expect(await expectDocumented("get", "/api/metrics", await scrape(monitoring.secret))).toContain(
      "tenant_console_webhooks_received_total",
    );
    await expectDocumented("get", "/api/metrics", await scrape(script.secret));
    await expectDocumented("get", "/api/metrics", await scrape());
    expect([...seen.get("get /api/metrics")!].sort()).toEqual([200, 401, 403]);
  });

  it("the receiver stores, refuses and turns other methods away as documented", async () => {
    const post = (request: Request) => receiver.POST(request, params({ path: [acme.token] }));
    await expectDocumented(
      "post",
      "/api/webhooks/{token}",
      await post(webhookRequest(acme.token, expiredEvent(), { keys: [KEY1] })),
    );
    await expectDocumented(
      "post",
      "/api/webhooks/{token}",
      await post(webhookRequest(acme.token, expiredEvent(), { keys: [KEY2] })),
    );
    await expectDocumented(
      "post",
      "/api/webhooks/{token}",
      await post(webhookRequest(acme.token, "{not json", { keys: [KEY1] })),
    );
    await expectDocumented(
      "post",
      "/api/webhooks/{token}",
      await post(webhookRequest(acme.token, "{}", { keys: [KEY1], headers: { "content-type": "text/plain" } })),
    );
    await expectDocumented(
      "post",
      "/api/webhooks/{token}",
      await post(webhookRequest(acme.token, "{}", { keys: [KEY1], headers: { "content-length": String(300 * 1024) } })),
    );
    const unknown = webhookRequest("unknown_token_0000000000", expiredEvent(), { keys: [KEY1] });
    await expectDocumented(
      "post",
      "/api/webhooks/{token}",
      await receiver.POST(unknown, params({ path: ["unknown_token_0000000000"] })),
    );
    for (const method of ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"] as const) {
      const request = new Request(url(`/api/webhooks/${acme.token}`), { method });
      await expectDocumented(method.toLowerCase(), "/api/webhooks/{token}", receiver[method](request));
    }
    expect([...seen.get("post /api/webhooks/{token}")!].sort()).toEqual([200, 400, 401, 404, 413, 415]);
  });

  it("every operation of the document was called above, but forwarding's writes (contract-writes.test.ts)", () => {
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method} ${path}`),
    );
    const unseen = operations.filter((operation) => !seen.has(operation) && !WRITES_CHECKED_APART.includes(operation));
    expect(unseen).toEqual([]);
  });
});
