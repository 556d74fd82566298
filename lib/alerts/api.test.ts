import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { Role } from "@/lib/auth/roles";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1, KEY2 } from "@/lib/webhooks/test-helpers";

import { muteAlert, unmuteAlert } from "./alerts";
import { evaluateAlerts } from "./evaluate";
import { minutesAfter, receiveUnsigned, refuseBadSignatures } from "./test-helpers";

const session = vi.hoisted(() => ({ role: "support" as Role | null }));
vi.mock("@/lib/auth/guards", async (original) => {
  const guards = await original<typeof import("@/lib/auth/guards")>();
  return {
    ...guards,
    authenticateApi: async () =>
      session.role
        ? { id: "u1", email: "u@example.com", name: "U", role: session.role }
        : guards.apiError(401, "unauthorized", "Sign in first."),
  };
});

const { handleListAlerts } = await import("./api");

let tearDown: () => Promise<void>;
let acme: { id: string; token: string };
const get = async (query = "") => {
  const response = await handleListAlerts(new Request(`http://127.0.0.1:3000/api/alerts${query}`));
  return { status: response.status, body: await response.json(), cache: response.headers.get("cache-control") };
};

beforeAll(async () => {
  ({ tearDown } = await setUpTestDatabase());
  acme = await insertTestConnection("Acme", [KEY1]);
  const t0 = new Date(Date.now() - 60 * 60_000);
  await refuseBadSignatures(acme.token, t0, 5, KEY2);
  await receiveUnsigned(acme.token, minutesAfter(t0, 50));
  await evaluateAlerts({ now: minutesAfter(t0, 1) });
  await evaluateAlerts({ now: minutesAfter(t0, 16) });
  await evaluateAlerts({ now: minutesAfter(t0, 51) }); // bad signatures resolved (clear since minute 16), unsigned opened
});
afterAll(async () => {
  await tearDown();
});

describe("GET /api/alerts", () => {
  it("lists the alerts for support, open first, with kind, connection, state and times; never cached", async () => {
    const { status, body, cache } = await get();
    expect(status).toBe(200);
    expect(cache).toContain("no-store");
    expect(body.total).toBe(2);
    expect(body.alerts.map((a: { kind: string; state: string }) => [a.kind, a.state])).toEqual([
      ["unsigned_events", "open"],
      ["bad_signatures", "resolved"],
    ]);
    expect(body.alerts[1]).toMatchObject({
      connection: { id: acme.id, name: "Acme", region: "us" },
      acknowledgedAt: null,
      resolvedAt: expect.any(String),
      openedAt: expect.any(String),
    });
    expect(body.lastEvaluatedAt).toEqual(expect.any(String));
  });

  it("filters by state, kind and connection", async () => {
    expect((await get("?state=open")).body.alerts.map((a: { kind: string }) => a.kind)).toEqual(["unsigned_events"]);
    expect((await get("?state=resolved&kind=bad_signatures")).body.total).toBe(1);
    expect((await get(`?connectionId=${crypto.randomUUID()}`)).body.total).toBe(0);
  });

  it("filters by muted: the banner's list (open, not muted now) leaves a muted alert out", async () => {
    const [open] = (await get("?state=open")).body.alerts as Array<{ id: string }>;
    expect((await get("?state=open&muted=no")).body.alerts.map((a: { id: string }) => a.id)).toEqual([open!.id]);
    expect(await muteAlert({ id: null, email: "u@example.com" }, { alertId: open!.id, hours: 1 })).toEqual({
      ok: true,
    });
    try {
      expect((await get("?state=open&muted=no")).body).toMatchObject({ alerts: [], total: 0 });
      expect((await get("?state=open&muted=yes")).body.alerts.map((a: { id: string }) => a.id)).toEqual([open!.id]);
      expect((await get("?state=open")).body.total).toBe(1);
    } finally {
      expect(await unmuteAlert({ id: null, email: "u@example.com" }, { alertId: open!.id })).toEqual({ ok: true });
    }
    expect((await get("?muted=maybe")).body.errorDescription).toBe("muted: must be one of all, yes, no");
  });

  it("names a bad parameter in the log API's error shape", async () => {
    expect(await get("?state=closed")).toMatchObject({
      status: 400,
      body: { error: "invalid_request", errorDescription: expect.stringMatching(/^state: /) },
    });
    expect(await get("?status=open")).toMatchObject({
      status: 400,
      body: {
        error: "invalid_request",
        errorDescription: "status: not a filter (use connectionId, kind, state, muted or limit)",
      },
    });
    expect((await get("?limit=0")).body.errorDescription).toBe("limit: must be at least 1");
  });

  it("answers 401 to a signed-out caller", async () => {
    session.role = null;
    expect((await get()).status).toBe(401);
    session.role = "support";
  });
});
