import http from "node:http";
import type { AddressInfo } from "node:net";

import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog, webhookEvents } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { scaled } from "@/lib/testing/timeouts";
import { expiredEvent, insertTestConnection, TENANT_ID, webhookRequest } from "@/lib/testing/webhooks";

import { TEST_EVENT_ID_PREFIX, TEST_EVENT_NEEDS_SERVER_KEY } from "./constants";
import { receiveWebhook } from "./receive";
import { resetRejectionLimits } from "./rejections";
import { sendTestEvent, TEST_EVENT_USER_ID } from "./test-event";
import { describeNetworkError } from "./test-event-post";
import type { TestEventReport } from "./types";
import { PLACEHOLDER_TENANT_ID } from "./webhooks";

const KEY = "test_srv_console_test_event_key_00001";
const OTHER_KEY = "test_srv_other_console_key_0000000002";
const actor = { id: null, email: "admin@example.com" } as const;

/**
 * What answers at the console's public URL: this console's receiver, or what a wrong CONSOLE_PUBLIC_URL or a proxy
 * puts in the way (another console, a redirect, a failing proxy, a 200 that stores nothing, no answer at all).
 */
type Mode = "receiver" | "other-console" | "unknown-token" | "redirect" | "bad-gateway" | "swallow" | "hang";
let mode: Mode = "receiver";
let requests = 0;
let server: http.Server;
let origin: string;

let db: Database;
let tearDown: () => Promise<void>;
let signed: { id: string; token: string };
let other: { id: string; token: string };
let keyless: { id: string; token: string };

async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  requests += 1;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const path = req.url ?? "/";
  const token = path.split("/").pop() ?? "";
  if (mode === "hang") return;
  if (mode === "redirect") return void res.writeHead(308, { Location: `https://127.0.0.1${path}` }).end();
  if (mode === "bad-gateway")
    return void res.writeHead(502, { "Content-Type": "text/html" }).end("<h1>502 Bad Gateway</h1>");
  if (mode === "swallow")
    return void res.writeHead(200, { "Content-Type": "application/json" }).end('{"success":true}');
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const request = new Request(`${origin}${path}`, { method: req.method, headers, body: Buffer.concat(chunks) });
  const routed =
    mode === "other-console" ? other.token : mode === "unknown-token" ? "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" : token;
  const response = await receiveWebhook(request, { token: routed });
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
}

beforeAll(async () => {
  server = http.createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Before anything reads the environment: the console's public URL is this server.
  process.env.CONSOLE_PUBLIC_URL = origin;
  ({ db, tearDown } = await setUpTestDatabase());
  signed = await insertTestConnection("Signed", [KEY]);
  other = await insertTestConnection("Another console's", [OTHER_KEY]);
  keyless = await insertTestConnection("Keyless");
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await tearDown();
});
beforeEach(() => {
  mode = "receiver";
  resetRejectionLimits();
});

async function send(connectionId = signed.id): Promise<TestEventReport> {
  const result = await sendTestEvent(actor, { connectionId });
  if (!result.ok) throw new Error(result.error);
  return result.report;
}

async function lastAudit() {
  const [row] = await db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, "webhook.test_sent"))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row!;
}

const maskedToken = () => `${signed.token.slice(0, 4)}…${signed.token.slice(-4)}`;

describe("a test event through the public receiver URL", () => {
  it("is verified with key 1, stored marked as a test with fake data, linked in the log, and audited", async () => {
    const report = await send();
    expect(report).toMatchObject({
      outcome: "delivered",
      headline: "Delivered: the receiver verified it with key 1 and stored it.",
      status: 200,
      url: `${origin}/api/webhooks/${maskedToken()}`,
    });
    expect(JSON.stringify(report)).not.toContain(signed.token);
    expect(report.ms).toBeGreaterThanOrEqual(0);

    const [row] = await db.select().from(webhookEvents).where(eq(webhookEvents.connectionId, signed.id));
    expect(row).toMatchObject({
      isTest: true,
      signatureStatus: "verified_key1",
      userId: TEST_EVENT_USER_ID,
      tenantId: PLACEHOLDER_TENANT_ID,
      email: null,
      phoneNumber: null,
    });
    expect(row!.eventId.startsWith(TEST_EVENT_ID_PREFIX)).toBe(true);
    expect(report.logHref).toBe(`/webhooks?connectionId=${signed.id}&test=only&event=${row!.id}`);

    expect(await lastAudit()).toMatchObject({
      outcome: "success",
      httpStatus: 200,
      connectionId: signed.id,
      connectionName: "Signed",
      target: row!.eventId,
      actorEmail: actor.email,
    });
  });

  it("carries the tenant's id once an event of the tenant has arrived", async () => {
    expect((await receiveWebhook(webhookRequest(signed.token, expiredEvent(), { keys: [KEY] }))).status).toBe(200);
    await send();
    const [latest] = await db
      .select({ tenantId: webhookEvents.tenantId })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.connectionId, signed.id), eq(webhookEvents.isTest, true)))
      .orderBy(desc(webhookEvents.id))
      .limit(1);
    expect(latest?.tenantId).toBe(TENANT_ID);
  });

  it("reports a key mismatch when the URL reaches a console that checks another key", async () => {
    mode = "other-console";
    const report = await send();
    expect(report).toMatchObject({
      outcome: "refused",
      status: 401,
      headline: "Refused (HTTP 401): bad signature.",
      receiverSaid: "unauthorized: no v2 signature matches a server secret key",
      logHref: null,
    });
    expect(report.explanation).toContain("CONSOLE_PUBLIC_URL");
    expect(await lastAudit()).toMatchObject({ outcome: "failure", httpStatus: 401 });
  });

  it("reports a token the receiver does not know", async () => {
    mode = "unknown-token";
    expect(await send()).toMatchObject({
      outcome: "refused",
      status: 404,
      headline: "Refused (HTTP 404): unknown webhook URL.",
    });
  });

  it("reports a redirect in words, with the token masked in its target", async () => {
    mode = "redirect";
    const report = await send();
    expect(report.outcome).toBe("redirect");
    expect(report.headline).toBe(
      `A redirect (HTTP 308 to https://127.0.0.1/api/webhooks/${maskedToken()}): a proxy or the wrong scheme (http vs https) is in the way.`,
    );
    expect(report.explanation).toContain("does not follow redirects");
  });

  it("tells a failing proxy and a 200 that stored nothing here from a delivery", async () => {
    mode = "bad-gateway";
    expect(await send()).toMatchObject({
      outcome: "refused",
      status: 502,
      headline: "A server in the way failed (HTTP 502).",
      receiverSaid: null,
    });
    mode = "swallow";
    expect(await send()).toMatchObject({
      outcome: "elsewhere",
      status: 200,
      headline: "The address answered HTTP 200, but the event is not in this console's log.",
      logHref: null,
    });
    expect(await lastAudit()).toMatchObject({ outcome: "failure", httpStatus: 200 });
  });

  it(
    "gives up after 5 s and says so",
    async () => {
      mode = "hang";
      const report = await send();
      expect(report).toMatchObject({ outcome: "timeout", status: null, headline: "No answer within 5 s." });
      expect(report.ms).toBeGreaterThanOrEqual(4900);
    },
    scaled(15_000),
  );

  it("refuses without a server key, and an id that is not a connection's, sending nothing", async () => {
    const before = requests;
    expect(await sendTestEvent(actor, { connectionId: keyless.id })).toEqual({
      ok: false,
      error: TEST_EVENT_NEEDS_SERVER_KEY,
    });
    expect(await sendTestEvent(actor, { connectionId: "not-a-uuid" })).toEqual({
      ok: false,
      error: "That is not a connection's id.",
    });
    expect(await sendTestEvent(actor, { connectionId: "3f6c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c99" })).toEqual({
      ok: false,
      error: "This connection no longer exists.",
    });
    expect(requests).toBe(before);
  });

  // Last: it stops the server.
  it("reports an unreachable URL as a network error in words, never a stack", async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    const report = await send();
    expect(report).toMatchObject({
      outcome: "unreachable",
      status: null,
      headline: `Could not reach ${origin}/api/webhooks/${maskedToken()}: connection refused (ECONNREFUSED).`,
    });
    expect(JSON.stringify(report)).not.toMatch(/\n\s+at /);
    const audit = await lastAudit();
    expect(audit).toMatchObject({
      outcome: "failure",
      httpStatus: null,
      details: { outcome: "unreachable", ms: expect.any(Number), networkError: "ECONNREFUSED" },
    });
  });
});

describe("a network error in words", () => {
  it("says which port fetch refuses before it connects", async () => {
    const error = await fetch("http://127.0.0.1:1/api/webhooks/x").catch((e: unknown) => e);
    expect(describeNetworkError(error, "http://127.0.0.1:1/api/webhooks/x")).toEqual({
      code: undefined,
      words: "port 1 is one that fetch refuses to use (reserved for another protocol); use another port",
    });
  });

  it("finds the code inside an AggregateError, and keeps an unknown one", () => {
    const refused = new TypeError("fetch failed", {
      cause: new AggregateError([Object.assign(new Error("connect ECONNREFUSED ::1:80"), { code: "ECONNREFUSED" })]),
    });
    expect(describeNetworkError(refused, "http://localhost/")).toEqual({
      code: "ECONNREFUSED",
      words: "connection refused",
    });
    expect(describeNetworkError(Object.assign(new Error("x"), { code: "EWHATEVER" }), "http://localhost/")).toEqual({
      code: "EWHATEVER",
      words: "a network error (EWHATEVER)",
    });
  });
});
