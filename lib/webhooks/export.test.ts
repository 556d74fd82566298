import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { Role } from "@/lib/auth/roles";
import { webhookEvents, webhookRejections } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection, TENANT_ID } from "@/lib/testing/webhooks";

import { ensureEventPartitions } from "./partitions";

const session = vi.hoisted(() => ({ role: "support" as Role }));
vi.mock("@/lib/auth/guards", async (original) => ({
  ...(await original<typeof import("@/lib/auth/guards")>()),
  authenticateApi: async () => ({ id: "u1", email: "u@example.com", name: "U", role: session.role }),
}));

const { handleExportEvents, handleListRejections } = await import("./api");

let tearDown: () => Promise<void>;

beforeAll(async () => {
  let db;
  ({ db, tearDown } = await setUpTestDatabase());
  const acme = (await insertTestConnection("Acme, Inc.")).id;
  const time = (s: number) => new Date(Date.parse("2025-06-01T00:00:00.000Z") + s * 1000);
  // Events are inserted straight into the table here: their month's partition first.
  await ensureEventPartitions(time(0));
  await db.insert(webhookEvents).values(
    [1, 2, 3].map((n) => ({
      connectionId: acme,
      type: "authenticator.expired",
      eventId: `evt-${n}`,
      tenantId: TENANT_ID,
      envelopeTime: time(n),
      firstReceivedAt: time(n),
      lastReceivedAt: time(n),
      signatureStatus: "verified_key1",
      rawBody: "{}",
      userId: n === 2 ? "=cmd|' /C calc'!A0" : `usr_${n}`,
      email: `user${n}@example.com`,
      phoneNumber: "+15555550123",
    })),
  );
  await db.insert(webhookRejections).values({
    connectionId: acme,
    receivedAt: time(9),
    status: 401,
    reason: "bad_signature",
    bodySha256: "ab",
    headers: { "x-a": "1" },
  });
});
afterAll(() => tearDown());

async function get(handler: (request: Request) => Promise<Response>, path: string, role: Role) {
  session.role = role;
  const response = await handler(new Request(`http://console.test${path}`));
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

describe("export routes", () => {
  it("answer 400 to a cursor the log did not make, before any row is sent", async () => {
    for (const [handler, path] of [
      [handleExportEvents, "/api/webhook-events/export?format=csv&cursor=not-a-cursor"],
      [handleListRejections, "/api/webhook-rejections?format=ndjson&cursor=not-a-cursor"],
    ] as const) {
      const response = await get(handler, path, "admin");
      expect(response.status).toBe(400);
      expect(response.text).toContain("cursor");
    }
  });

  it("stream the CSV newest first with the header, quoting, formula guard and the support mask", async () => {
    const { status, type, text } = await get(handleExportEvents, "/api/webhook-events/export?format=csv", "support");
    expect(status).toBe(200);
    expect(type).toBe("text/csv; charset=utf-8");
    const lines = text.split("\r\n");
    expect(lines[0]).toBe(
      "id,connectionName,eventId,type,tenantId,envelopeTime,firstReceivedAt,lastReceivedAt,deliveryCount,signatureStatus,isTest,userId,verificationMethod,createdAt,expiresAt,userAuthenticatorId,deviceName,devicePlatform,email,phoneNumber,credentialId,aaguid,credentialName",
    );
    expect(lines).toHaveLength(5); // header, 3 rows, and the empty string after the last CRLF
    expect(lines.slice(1, 4).map((l) => /,(evt-\d),/.exec(l)?.[1])).toEqual(["evt-3", "evt-2", "evt-1"]);
    expect(lines[2]).toContain(`"Acme, Inc."`);
    expect(lines[2]).toContain(`'=cmd|' /C calc'!A0`);
    expect(lines[1]).toContain("2025-06-01T00:00:03.000Z");
    expect(lines[1]).toContain("u•••@example.com,'+•••••••0123"); // masked, then guarded as a formula would be
    expect(text).not.toMatch(/user\d@example\.com|5555550123/);
    const admin = await get(handleExportEvents, "/api/webhook-events/export?format=csv", "admin");
    expect(admin.text).toContain("user3@example.com,'+15555550123");
  });

  it("stream NDJSON of events and of rejections", async () => {
    const events = (await get(handleExportEvents, "/api/webhook-events/export?format=ndjson", "support")).text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.eventId)).toEqual(["evt-3", "evt-2", "evt-1"]);
    expect(events[0]).toMatchObject({
      connectionName: "Acme, Inc.",
      email: "u•••@example.com",
      firstReceivedAt: "2025-06-01T00:00:03.000Z",
      createdAt: null,
    });
    const rejections = (await get(handleListRejections, "/api/webhook-rejections?format=ndjson", "support")).text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rejections).toEqual([
      expect.objectContaining({
        connectionName: "Acme, Inc.",
        receivedAt: "2025-06-01T00:00:09.000Z",
        reason: "bad_signature",
        headers: { "x-a": "1" },
      }),
    ]);
  });
});
