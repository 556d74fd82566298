import crypto from "node:crypto";

import { expect, test, type APIRequestContext } from "@playwright/test";

import type { TenantApp } from "@/tooling/tenant-app";

import { signIn } from "./support/auth";
import { startAcmeTenantApp } from "./support/destinations";
import { expireAuthenticator } from "./support/emulator";
import { e2eUsers } from "./support/env";
import { connectionIdOf, createToken } from "./support/tokens";
import { uniqueUser } from "./support/webhook-log";

// Forwarding's writes over HTTP against the production build, as a script makes them: with an admin's API
// token they do what the Destinations page and the log do; with a support token each is refused with 403.

let tenantApp: TenantApp;
const secrets = { admin: "", support: "" };
let acmeId = "";

test.beforeAll(async ({ browser }) => {
  tenantApp = await startAcmeTenantApp();
  const page = await browser.newPage();
  await signIn(page, e2eUsers.admin);
  const run = crypto.randomBytes(3).toString("hex");
  secrets.admin = await createToken(page, `e2e api admin ${run}`, "admin");
  secrets.support = await createToken(page, `e2e api support ${run}`, "support");
  acmeId = await connectionIdOf(page, "Acme");
  await page.close();
});
test.afterAll(() => tenantApp.close());

type Role = keyof typeof secrets;
const send = (request: APIRequestContext, role: Role, method: string, path: string, data?: unknown) =>
  request.fetch(path, { method, headers: { authorization: `Bearer ${secrets[role]}` }, data });

test("an admin token adds a destination, turns it off, caps it and removes it, as the page would", async ({
  request,
}) => {
  const name = `API hook ${crypto.randomBytes(3).toString("hex")}`;
  const created = await send(request, "admin", "POST", "/api/destinations", {
    connectionId: acmeId,
    name,
    url: `${tenantApp.url}/tenants/acme`,
    signing: "standard_webhooks",
  });
  expect(created.status()).toBe(200);
  const { id, secret } = (await created.json()) as { id: string; secret: string };
  expect(secret).toMatch(/^whsec_/);

  const changed = await send(request, "admin", "PATCH", `/api/destinations/${id}`, { enabled: false, maxPerSecond: 3 });
  expect(await changed.json()).toMatchObject({ id, enabled: false, maxPerSecond: 3 });
  const listed = await send(request, "admin", "GET", `/api/destinations?connectionId=${acmeId}`);
  expect((await listed.json()).destinations).toContainEqual(expect.objectContaining({ id, name, enabled: false }));

  const taken = await send(request, "admin", "POST", "/api/destinations", {
    connectionId: acmeId,
    name,
    url: `${tenantApp.url}/tenants/acme`,
    signing: "standard_webhooks",
  });
  expect(taken.status()).toBe(409);
  expect(await taken.json()).toMatchObject({ error: "conflict" });

  expect((await send(request, "admin", "DELETE", `/api/destinations/${id}`)).status()).toBe(200);
  expect((await send(request, "admin", "DELETE", `/api/destinations/${id}`)).status()).toBe(404);
});

test("an admin token resends an event to a destination and starts and cancels a replay", async ({ request }) => {
  const created = await send(request, "admin", "POST", "/api/destinations", {
    connectionId: acmeId,
    name: `API replay ${crypto.randomBytes(3).toString("hex")}`,
    url: `${tenantApp.url}/tenants/acme`,
    signing: "service",
  });
  const destinationId = ((await created.json()) as { id: string }).id;
  const userId = uniqueUser("api_resend");
  await expireAuthenticator(userId);
  const events = await send(request, "admin", "GET", `/api/webhook-events?userId=${userId}`);
  const [event] = ((await events.json()) as { events: Array<{ id: number; eventId: string }> }).events;
  await expect
    .poll(() => tenantApp.receipts.filter((r) => r.eventId === event!.eventId).length, { timeout: 15_000 })
    .toBe(1);

  const resent = await send(request, "admin", "POST", `/api/webhook-events/${event!.id}/forwards`, { destinationId });
  expect(await resent.json()).toEqual({ queued: true, eventId: event!.eventId, destinationId });
  await expect
    .poll(() => tenantApp.receipts.filter((r) => r.eventId === event!.eventId && r.verified).length, {
      timeout: 15_000,
    })
    .toBe(2);

  const body = { destinationId, filters: { userId } };
  const preview = await send(request, "admin", "POST", "/api/replays/preview", body);
  expect(await preview.json()).toMatchObject({ count: 1 });
  const started = await send(request, "admin", "POST", "/api/replays", body);
  const { replayId, total } = (await started.json()) as { replayId: string; total: number };
  expect(total).toBe(1);
  const cancelled = await send(request, "admin", "POST", `/api/replays/${replayId}/cancel`);
  expect(await cancelled.json()).toMatchObject({ replayId });
  const progress = await send(request, "admin", "GET", `/api/replays/${replayId}`);
  expect(await progress.json()).toMatchObject({ state: "cancelled" });
  expect((await send(request, "admin", "DELETE", `/api/destinations/${destinationId}`)).status()).toBe(200);
});

test("a support token lists destinations but gets 403 from every route that writes", async ({ request }) => {
  expect((await send(request, "support", "GET", `/api/destinations?connectionId=${acmeId}`)).status()).toBe(200);
  const id = crypto.randomUUID();
  const writes: Array<[string, string, unknown?]> = [
    ["POST", "/api/destinations", { connectionId: acmeId, name: "No", url: tenantApp.url, signing: "service" }],
    ["PATCH", `/api/destinations/${id}`, { enabled: false }],
    ["DELETE", `/api/destinations/${id}`],
    ["POST", `/api/destinations/${id}/test`],
    ["POST", "/api/webhook-events/1/forwards", { destinationId: id }],
    ["POST", "/api/replays/preview", { destinationId: id }],
    ["POST", "/api/replays", { destinationId: id }],
    ["POST", `/api/replays/${id}/cancel`],
  ];
  for (const [method, path, data] of writes) {
    const answer = await send(request, "support", method, path, data);
    expect(answer.status(), `${method} ${path}`).toBe(403);
    expect(await answer.json()).toEqual({
      error: "forbidden",
      errorDescription: "This API needs the admin role; the token has support.",
    });
  }
  // Signed out, no token: 401.
  expect((await request.fetch("/api/destinations", { method: "POST", data: {} })).status()).toBe(401);
});
