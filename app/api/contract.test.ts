import { Ajv2020 } from "ajv/dist/2020";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { minutesAfter, refuseBadSignatures } from "@/lib/alerts/test-helpers";
import { openApiDocument } from "@/lib/api-docs/api-docs";
import type { Role } from "@/lib/auth/roles";
import { installDatabase, type DatabaseHandle } from "@/lib/db";
import { createDestination } from "@/lib/destinations/destinations";
import { continueReplays, startReplay } from "@/lib/destinations/replay";
import { LOCAL_POLICY, startReceiver } from "@/lib/destinations/test-helpers";
import { forwardDueDeliveries } from "@/lib/destinations/worker";
import { setUpTestDatabase, unreachableDatabase } from "@/lib/testing/database";
import { expiredEvent, insertTestConnection, webhookRequest } from "@/lib/testing/webhooks";
import { createApiToken } from "@/lib/tokens/tokens";
import { KEY1, KEY2 } from "@/lib/webhooks/test-helpers";

import * as alerts from "./alerts/route";
import * as endUser from "./end-users/[userId]/route";
import * as health from "./health/route";
import * as metrics from "./metrics/route";
import * as openapi from "./openapi.json/route";
import * as replay from "./replays/[id]/route";
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

const document = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat(
  "date-time",
  (value: string) =>
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value)),
);
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
ajv.addSchema(document as object, "openapi.json");

type Operation = {
  responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
};
const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
/** Each operation ("get /api/alerts") and the statuses the tests have seen it answer. */
const seen = new Map<string, Set<number>>();

/**
 * Checks one answer against the document: a documented status, a documented content type, a body its schema accepts.
 */
async function expectDocumented(method: string, path: string, response: Response): Promise<unknown> {
  const where = `${method} ${path} ${response.status}`;
  const operation = (document.paths?.[path] as Record<string, Operation> | undefined)?.[method];
  expect(operation, `${method} ${path} is in the document`).toBeDefined();
  const documented = operation!.responses[String(response.status)];
  expect(documented, `${where} is documented`).toBeDefined();
  seen.set(`${method} ${path}`, (seen.get(`${method} ${path}`) ?? new Set()).add(response.status));
  for (const header of Object.keys(documented!.headers ?? {})) {
    if (header !== "Content-Disposition" || response.headers.get("content-type") !== "application/json")
      expect(response.headers.get(header), `${where}: ${header}`).not.toBeNull();
  }
  const type = response.headers.get("content-type")?.split(";")[0]?.trim() ?? "";
  expect(Object.keys(documented!.content ?? {}), `${where}: its content type`).toContain(type);
  const text = await response.text();
  if (type !== "application/json") return text;
  const body: unknown = JSON.parse(text);
  const validate = ajv.compile({
    $ref: `openapi.json#/${pointer("paths", path, method, "responses", String(response.status), "content", type, "schema")}`,
  });
  expect(validate(body) ? [] : validate.errors, `${where}: its body`).toEqual([]);
  return body;
}

const url = (path: string) => `http://127.0.0.1:3000${path}`;
const get = (path: string) => new Request(url(path));
const erase = (userId: string, query = "") =>
  endUser.DELETE(
    new Request(url(`/api/end-users/${encodeURIComponent(userId)}${query}`), { method: "DELETE" }),
    params({ userId }),
  );
const params = <T>(value: T) => ({ params: Promise.resolve(value) });

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

  it("the API answers 401; health (200, and 503 without a database), the document and the receiver need none", async () => {
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

  it("every operation of the document was called above", () => {
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method} ${path}`),
    );
    expect(operations.filter((operation) => !seen.has(operation))).toEqual([]);
  });
});
