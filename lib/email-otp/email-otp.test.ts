import http from "node:http";
import type { AddressInfo } from "node:net";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { RunningEmulator } from "@/emulator/server";
import { createConnection } from "@/lib/connections/connections";
import type { Database } from "@/lib/db";
import { auditLog } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { demoTenant, startTestEmulator } from "@/lib/testing/emulator";

import { deleteEmailOtp, getEmailOtpStatus } from "./email-otp";

const globex = demoTenant("Globex");
const admin = { id: null, email: "ada@example.com" } as const;
let emulator: RunningEmulator;
let db: Database;
let tearDown: () => Promise<void>;
let connectionId: string;
// A service that answers a DELETE outside the spec (the emulator never does): the next answer to send.
let offSpecAnswer: { status: number; body: string } = { status: 200, body: "" };
const offSpecService = http.createServer((req, res) => {
  const { status, body } =
    req.method === "DELETE"
      ? offSpecAnswer
      : { status: 404, body: JSON.stringify({ error: "not_found", errorDescription: "none" }) };
  res.writeHead(status, body ? { "content-type": "application/json" } : {}).end(body);
});

beforeAll(async () => {
  emulator = await startTestEmulator();
  await new Promise<void>((resolve) => offSpecService.listen(0, "127.0.0.1", resolve));
  process.env.SERVICE_BASE_URL_CA = `http://127.0.0.1:${(offSpecService.address() as AddressInfo).port}/v1`;
  ({ db, tearDown } = await setUpTestDatabase());
  const created = await createConnection(admin, {
    name: "Globex",
    region: "eu",
    managementKey: globex.managementKey,
    serverKey: "",
    serverSecondaryKey: "",
    saveUnverified: false,
  });
  if (!created.ok) throw new Error(created.error);
  connectionId = created.id;
});
afterAll(async () => {
  await tearDown();
  await emulator.close();
  await new Promise((resolve) => offSpecService.close(resolve));
});

const audits = async () =>
  db.select().from(auditLog).where(eq(auditLog.action, "email_otp.deleted")).orderBy(auditLog.id);

describe("email OTP delete", () => {
  it("refuses without the exact connection name and sends nothing", async () => {
    expect(await deleteEmailOtp(admin, { connectionId, confirmName: "globex" })).toMatchObject({ ok: false });
    expect(await audits()).toHaveLength(0);
  });

  it("a double submit shares one DELETE; then the configuration is gone and a second attempt says there was none", async () => {
    const [a, b] = await Promise.all([
      deleteEmailOtp(admin, { connectionId, confirmName: "Globex" }),
      deleteEmailOtp(admin, { connectionId, confirmName: "Globex" }),
    ]);
    expect(a).toMatchObject({ ok: true, outcome: "deleted" });
    expect(b).toEqual(a);
    expect((await audits()).map((r) => [r.outcome, r.httpStatus])).toEqual([["success", 200]]);
    expect(await getEmailOtpStatus(connectionId)).toEqual({ kind: "absent" });
    expect(await deleteEmailOtp(admin, { connectionId, confirmName: "Globex" })).toMatchObject({
      ok: true,
      outcome: "none",
    });
    expect((await audits()).map((r) => [r.outcome, r.httpStatus])).toEqual([
      ["success", 200],
      ["failure", 404],
    ]);
  });

  it("another admin's delete is their own request; a wrong name never rides on one in flight", async () => {
    await fetch(`${emulator.url}/_emulator/reset`, { method: "POST" });
    expect(await getEmailOtpStatus(connectionId)).toMatchObject({ kind: "present" });
    const before = (await audits()).length;
    const grace = { id: null, email: "grace@example.com" } as const;
    const [mine, wrongName, theirs] = await Promise.all([
      deleteEmailOtp(admin, { connectionId, confirmName: "Globex" }),
      deleteEmailOtp(admin, { connectionId, confirmName: "Globe" }),
      deleteEmailOtp(grace, { connectionId, confirmName: "Globex" }),
    ]);
    expect(wrongName).toEqual({ ok: false, error: "Type Globex to confirm." });
    expect([mine, theirs].map((r) => (r.ok ? r.outcome : r.error)).sort()).toEqual(["deleted", "none"]);
    const rows = (await audits()).slice(before);
    expect(rows.map((r) => r.actorEmail).sort()).toEqual(["ada@example.com", "grace@example.com"]);
  });

  it("an answer outside the spec is never reported as deleted, and a 2xx one is not called unchanged", async () => {
    const created = await createConnection(admin, {
      name: "Initech",
      region: "ca",
      managementKey: "initech-management-key",
      serverKey: "",
      serverSecondaryKey: "",
      saveUnverified: false,
    });
    if (!created.ok) throw new Error(created.error);
    const attempt = () => deleteEmailOtp(admin, { connectionId: created.id, confirmName: "Initech" });

    offSpecAnswer = { status: 200, body: JSON.stringify({ success: false }) };
    expect(await attempt()).toMatchObject({ ok: false, error: expect.stringContaining("Not deleted") });
    offSpecAnswer = { status: 204, body: "" };
    expect(await attempt()).toMatchObject({
      ok: false,
      error: expect.stringContaining("Not confirmed as deleted: the service answered HTTP 204"),
    });
    const rows = (await audits()).filter((r) => r.connectionId === created.id);
    expect(rows.map((r) => [r.outcome, r.httpStatus])).toEqual([
      ["failure", 200],
      ["failure", 204],
    ]);
  });
});
