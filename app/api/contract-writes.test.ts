import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { getDb } from "@/lib/db";
import { auditLog, webhookEvents } from "@/lib/db/schema";
import { receiveEvent, startReceiver } from "@/lib/destinations/test-helpers";
import { reloadEnv } from "@/lib/env";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { createApiToken } from "@/lib/tokens/tokens";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import * as destination from "./destinations/[id]/route";
import * as destinationTest from "./destinations/[id]/test/route";
import * as destinations from "./destinations/route";
import * as cancel from "./replays/[id]/cancel/route";
import * as preview from "./replays/preview/route";
import * as replays from "./replays/route";
import { expectDocumented, params, seen, url, WRITES_CHECKED_APART } from "./test-helpers";
import * as forwards from "./webhook-events/[id]/forwards/route";

// Forwarding's routes that write, called as a script calls them: with real API tokens (no session), on a real
// database, each answer checked against the OpenAPI document.

type Role = "admin" | "support";
const secrets: Record<Role, string> = { admin: "", support: "" };
let tearDown: () => Promise<void>;
let handler: Awaited<ReturnType<typeof startReceiver>>;
let acme: { id: string; token: string };
let globex: { id: string; token: string };
let eventRowId: number;

beforeAll(async () => {
  vi.stubEnv("CONSOLE_FORWARD_ALLOWED_HOSTS", "127.0.0.1");
  reloadEnv();
  ({ tearDown } = await setUpTestDatabase());
  handler = await startReceiver();
  acme = await insertTestConnection("Acme", [KEY1]);
  globex = await insertTestConnection("Globex", [KEY1]);
  const operator = { actor: { id: null, email: null }, user: null };
  for (const role of ["admin", "support"] as const) {
    const token = await createApiToken(operator, { name: `Script ${role}`, role, scopes: ["api"] });
    if (!token.ok) throw new Error(token.error);
    secrets[role] = token.secret;
  }
  const event = await receiveEvent(acme.token, [KEY1]);
  const db = await getDb();
  const [row] = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(eq(webhookEvents.eventId, event.id));
  eventRowId = row!.id;
});
afterAll(async () => {
  await handler.close();
  await tearDown();
  vi.unstubAllEnvs();
  reloadEnv();
});

const call = (role: Role, method: string, path: string, body?: unknown) =>
  new Request(url(path), {
    method,
    headers: {
      authorization: `Bearer ${secrets[role]}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const standard = (name: string, connectionId = acme.id) => ({
  connectionId,
  name,
  url: handler.url,
  signing: "standard_webhooks",
});

async function create(name: string, connectionId = acme.id) {
  const response = await destinations.POST(call("admin", "POST", "/api/destinations", standard(name, connectionId)));
  return (await expectDocumented("post", "/api/destinations", response)) as { id: string; secret: string | null };
}

const lastAudit = async (action: string) => {
  const db = await getDb();
  const [record] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action)))
    .orderBy(desc(auditLog.at))
    .limit(1);
  return record;
};

describe("destinations over the API", () => {
  it("lists a connection's destinations to a support token, the URL's origin only", async () => {
    await create("Listed");
    const response = await destinations.GET(call("support", "GET", `/api/destinations?connectionId=${acme.id}`));
    const body = (await expectDocumented("get", "/api/destinations", response)) as {
      destinations: Array<{ name: string; url: string }>;
    };
    expect(body.destinations.find((d) => d.name === "Listed")?.url).toBe(new URL(handler.url).origin);
  });

  it("names a bad or unknown connection in the list's query", async () => {
    const bad = await destinations.GET(call("admin", "GET", "/api/destinations?connectionId=acme"));
    expect(await expectDocumented("get", "/api/destinations", bad)).toMatchObject({
      errorDescription: expect.stringMatching(/^connectionId: /),
    });
    const unknown = await destinations.GET(
      call("admin", "GET", `/api/destinations?connectionId=${crypto.randomUUID()}`),
    );
    expect(unknown.status).toBe(404);
    await expectDocumented("get", "/api/destinations", unknown);
  });

  it("creates a destination with an admin token, its secret in the answer, audited as the token's", async () => {
    const created = await create("Created");
    expect(created.secret).toMatch(/^whsec_/);
    const record = await lastAudit("destination.created");
    expect(record).toMatchObject({ target: "Created", actorEmail: "api token Script admin", connectionId: acme.id });
  });

  it("refuses every write to a support token with 403", async () => {
    const id = (await create("Support cannot"))!.id;
    const answers = [
      ["post", "/api/destinations", await destinations.POST(call("support", "POST", "/api", standard("No")))],
      [
        "patch",
        "/api/destinations/{id}",
        await destination.PATCH(call("support", "PATCH", "/", { enabled: false }), params({ id })),
      ],
      ["delete", "/api/destinations/{id}", await destination.DELETE(call("support", "DELETE", "/"), params({ id }))],
      ["post", "/api/destinations/{id}/test", await destinationTest.POST(call("support", "POST", "/"), params({ id }))],
      [
        "post",
        "/api/webhook-events/{id}/forwards",
        await forwards.POST(call("support", "POST", "/", { destinationId: id }), params({ id: String(eventRowId) })),
      ],
      ["post", "/api/replays/preview", await preview.POST(call("support", "POST", "/", { destinationId: id }))],
      ["post", "/api/replays", await replays.POST(call("support", "POST", "/", { destinationId: id }))],
      ["post", "/api/replays/{id}/cancel", await cancel.POST(call("support", "POST", "/"), params({ id }))],
    ] as const;
    for (const [method, path, response] of answers) {
      expect(response.status, `${method} ${path}`).toBe(403);
      await expectDocumented(method, path, response);
    }
  });

  it("names a bad field with 400, and a taken name with 409", async () => {
    await create("Taken");
    const bad = await destinations.POST(call("admin", "POST", "/", { ...standard("Bad"), url: "ftp://x.example" }));
    expect(await expectDocumented("post", "/api/destinations", bad)).toMatchObject({
      errorDescription: expect.stringMatching(/^url: /),
    });
    const misspelt = await destinations.POST(call("admin", "POST", "/", { ...standard("Bad"), evenTypes: [] }));
    expect(await misspelt.json()).toMatchObject({ errorDescription: "evenTypes: not a parameter of this route" });
    const taken = await destinations.POST(call("admin", "POST", "/", standard("Taken")));
    expect(taken.status).toBe(409);
    await expectDocumented("post", "/api/destinations", taken);
    const nowhere = await destinations.POST(call("admin", "POST", "/", standard("Nowhere", crypto.randomUUID())));
    expect(nowhere.status).toBe(404);
    await expectDocumented("post", "/api/destinations", nowhere);
  });

  it("turns a destination off and changes its cap, answering it as it is now", async () => {
    const { id } = await create("Patched");
    const patch = (body: unknown, which = id) =>
      destination.PATCH(call("admin", "PATCH", `/api/destinations/${which}`, body), params({ id: which }));
    const changed = await expectDocumented(
      "patch",
      "/api/destinations/{id}",
      await patch({ enabled: false, maxPerSecond: 5 }),
    );
    expect(changed).toMatchObject({ id, enabled: false, maxPerSecond: 5, health: { state: "off" } });
    expect(await lastAudit("destination.disabled")).toMatchObject({ target: "Patched" });
    expect(await lastAudit("destination.updated")).toMatchObject({ details: { maxPerSecond: { from: null, to: 5 } } });
    const bad = await patch({ maxPerSecond: 0 });
    expect(await expectDocumented("patch", "/api/destinations/{id}", bad)).toMatchObject({
      errorDescription: expect.stringMatching(/^maxPerSecond: /),
    });
    const unknown = await patch({ enabled: true }, crypto.randomUUID());
    expect(unknown.status).toBe(404);
    await expectDocumented("patch", "/api/destinations/{id}", unknown);
  });

  it("edits a destination's URL and event types, naming a refused URL with 400", async () => {
    const { id } = await create("Edited");
    const patch = (body: unknown) => destination.PATCH(call("admin", "PATCH", "/", body), params({ id }));
    const moved = `${handler.url}/moved`;
    const edited = await patch({ url: moved, eventTypes: ["authenticator.expired"] });
    expect(await expectDocumented("patch", "/api/destinations/{id}", edited)).toMatchObject({
      url: moved,
      eventTypes: ["authenticator.expired"],
    });
    expect(await lastAudit("destination.updated")).toMatchObject({ target: "Edited" });
    const refused = await patch({ url: "http://example.com/hook" });
    expect(await expectDocumented("patch", "/api/destinations/{id}", refused)).toMatchObject({
      errorDescription: expect.stringMatching(/^url: /),
    });
  });

  it("sends a destination a test event that its handler receives, audited", async () => {
    const { id } = await create("Tested");
    const before = handler.received.length;
    const sent = await destinationTest.POST(call("admin", "POST", "/"), params({ id }));
    expect(await expectDocumented("post", "/api/destinations/{id}/test", sent)).toMatchObject({
      delivered: true,
      status: 200,
      eventId: expect.stringMatching(/^console-test-/),
    });
    expect(handler.received.length).toBe(before + 1);
    expect(await lastAudit("destination.test_sent")).toMatchObject({ target: "Tested" });
    const unknown = await destinationTest.POST(call("admin", "POST", "/"), params({ id: crypto.randomUUID() }));
    expect(unknown.status).toBe(404);
    await expectDocumented("post", "/api/destinations/{id}/test", unknown);
  });

  it("removes a destination, then answers 404 for it", async () => {
    const { id } = await create("Removed");
    const remove = () => destination.DELETE(call("admin", "DELETE", `/api/destinations/${id}`), params({ id }));
    expect(await expectDocumented("delete", "/api/destinations/{id}", await remove())).toEqual({
      id,
      name: "Removed",
      removed: true,
    });
    expect(await lastAudit("destination.removed")).toMatchObject({ target: "Removed" });
    expect((await remove()).status).toBe(404);
    await expectDocumented("delete", "/api/destinations/{id}", await remove());
    const bad = await destination.DELETE(call("admin", "DELETE", "/"), params({ id: "nope" }));
    expect(bad.status).toBe(400);
    await expectDocumented("delete", "/api/destinations/{id}", bad);
  });
});

describe("resends and replays over the API", () => {
  it("resends an event to a destination of its connection, and 404 to another connection's", async () => {
    const { id } = await create("Resent to");
    const resend = (destinationId: string, eventId = String(eventRowId)) =>
      forwards.POST(call("admin", "POST", "/", { destinationId }), params({ id: eventId }));
    expect(await expectDocumented("post", "/api/webhook-events/{id}/forwards", await resend(id))).toMatchObject({
      queued: true,
      destinationId: id,
    });
    expect(await lastAudit("destination.resent")).toMatchObject({ target: "Resent to" });
    const other = await create("Globex's", globex.id);
    const elsewhere = await resend(other.id);
    expect(elsewhere.status).toBe(404);
    await expectDocumented("post", "/api/webhook-events/{id}/forwards", elsewhere);
    await expectDocumented("post", "/api/webhook-events/{id}/forwards", await resend(id, "999999"));
    await expectDocumented("post", "/api/webhook-events/{id}/forwards", await resend("nope"));
  });

  it("refuses to resend to a destination that is off with 409", async () => {
    const { id } = await create("Off for resend");
    await destination.PATCH(call("admin", "PATCH", "/", { enabled: false }), params({ id }));
    const refused = await forwards.POST(
      call("admin", "POST", "/", { destinationId: id }),
      params({ id: String(eventRowId) }),
    );
    expect(refused.status).toBe(409);
    await expectDocumented("post", "/api/webhook-events/{id}/forwards", refused);
  });

  it("previews a replay, starts it, refuses a second while it runs, and cancels it once", async () => {
    const { id } = await create("Replayed to");
    const body = { destinationId: id, filters: { received: "24h" } };
    const previewed = await preview.POST(call("admin", "POST", "/", body));
    expect(await expectDocumented("post", "/api/replays/preview", previewed)).toMatchObject({ count: 1 });
    const started = (await expectDocumented(
      "post",
      "/api/replays",
      await replays.POST(call("admin", "POST", "/", body)),
    )) as {
      replayId: string;
    };
    expect(await lastAudit("destination.replay_started")).toMatchObject({ target: "Replayed to" });
    const again = await replays.POST(call("admin", "POST", "/", body));
    expect(again.status).toBe(409);
    await expectDocumented("post", "/api/replays", again);
    const stop = (replayId = started.replayId) => cancel.POST(call("admin", "POST", "/"), params({ id: replayId }));
    expect(await expectDocumented("post", "/api/replays/{id}/cancel", await stop())).toMatchObject({
      replayId: started.replayId,
    });
    expect((await stop()).status).toBe(409);
    await expectDocumented("post", "/api/replays/{id}/cancel", await stop());
    await expectDocumented("post", "/api/replays/{id}/cancel", await stop(crypto.randomUUID()));
    await expectDocumented("post", "/api/replays/{id}/cancel", await stop("nope"));
  });

  it("names a bad filter or body of a replay, and 404 for an unknown destination", async () => {
    const { id } = await create("Filtered");
    const bad = await replays.POST(call("admin", "POST", "/", { destinationId: id, filters: { received: "year" } }));
    expect(await expectDocumented("post", "/api/replays", bad)).toMatchObject({
      errorDescription: expect.stringMatching(/^filters: .*received/),
    });
    const unknown = await preview.POST(call("admin", "POST", "/", { destinationId: crypto.randomUUID() }));
    expect(unknown.status).toBe(404);
    await expectDocumented("post", "/api/replays/preview", unknown);
    const notJson = await preview.POST(
      new Request(url("/"), { method: "POST", headers: { authorization: `Bearer ${secrets.admin}` }, body: "x" }),
    );
    expect(notJson.status).toBe(400);
    await expectDocumented("post", "/api/replays/preview", notJson);
  });

  it("called every write of forwarding the document describes", () => {
    expect(WRITES_CHECKED_APART.filter((operation) => !seen.has(operation))).toEqual([]);
  });
});
