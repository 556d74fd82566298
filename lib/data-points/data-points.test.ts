import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { loadSeedFile, startEmulator, type RunningEmulator } from "@/emulator/server";
import { createConnection } from "@/lib/connections/connections";
import type { Database } from "@/lib/db";
import { setUpTestDatabase, whileAuditInsertsFail } from "@/lib/testing/database";

import { listWatches, lookUpDataPoint, refreshWatches, unwatchDataPoint, watchDataPoint } from "./data-points";

const seed = loadSeedFile("emulator/seeds/demo.json");
const acme = seed.tenants.find((t) => t.name === "Acme")!;
const admin = { id: null as unknown as string, email: "ada@example.com" };
let emulator: RunningEmulator;
let db: Database;
let tearDown: () => Promise<void>;
let connectionId: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed, backgroundTick: false });
  for (const r of ["us", "eu", "au", "ca"] as const)
    process.env[`SERVICE_BASE_URL_${r.toUpperCase()}`] = emulator.baseUrl(r);
  ({ db, tearDown } = await setUpTestDatabase());
  const created = await createConnection(
    { id: null, email: "seed" },
    {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      serverKey: "",
      serverSecondaryKey: "",
      saveUnverified: false,
    },
  );
  if (!created.ok) throw new Error(created.error);
  connectionId = created.id;
});
afterAll(async () => {
  await tearDown();
  await emulator.close();
});

describe("data point lookup and watch list", () => {
  it("looks up a point, and names the connection when the id is unknown", async () => {
    expect(await lookUpDataPoint(connectionId, "dp_is_employee")).toMatchObject({
      kind: "ok",
      dataPoint: { dataType: "boolean" },
    });
    expect(await lookUpDataPoint(connectionId, "dp_nope")).toMatchObject({
      kind: "failure",
      failure: "not_found",
      message: "There is no data point with the id “dp_nope” in Acme.",
    });
    expect(await lookUpDataPoint(crypto.randomUUID(), "dp_is_employee")).toMatchObject({
      kind: "failure",
      message: "This connection no longer exists.",
    });
  });

  it("watches only points that exist, refreshes them, and keeps the last snapshot when a fetch fails", async () => {
    expect(await watchDataPoint(admin, { connectionId, dataPointId: "dp_nope" })).toMatchObject({ ok: false });
    expect(await watchDataPoint(admin, { connectionId, dataPointId: "dp_order_total" })).toEqual({ ok: true });
    expect(await watchDataPoint(admin, { connectionId, dataPointId: "dp_loyalty_tier" })).toEqual({ ok: true });
    expect((await listWatches(connectionId)).map((w) => w.snapshot?.name)).toEqual(["Order total", "Loyalty tier"]);

    await fetch(`${emulator.url}/_emulator/faults`, {
      method: "POST",
      body: JSON.stringify({ region: "us", mode: "429", count: 1 }),
    });
    expect(await refreshWatches(connectionId)).toEqual({ ok: true, refreshed: 1, failed: 1 });
    const watches = await listWatches(connectionId);
    expect(watches.map((w) => w.lastStatus).sort()).toEqual(["ok", "rate_limited"]);
    expect(watches.every((w) => w.snapshot !== null && w.lastFetchedAt !== null)).toBe(true);

    expect(await unwatchDataPoint(admin, { connectionId, dataPointId: "dp_order_total" })).toEqual({ ok: true });
    expect((await listWatches(connectionId)).map((w) => w.dataPointId)).toEqual(["dp_loyalty_tier"]);
  });

  it("changes the watch list only together with its audit record", async () => {
    expect(await watchDataPoint(admin, { connectionId, dataPointId: "dp_order_total" })).toEqual({ ok: true });
    const watched = async () => (await listWatches(connectionId)).map((w) => w.dataPointId);
    const before = await watched();
    const auditRefused = /insert into "audit_log"/;
    await expect(
      whileAuditInsertsFail(db, () => watchDataPoint(admin, { connectionId, dataPointId: "dp_is_employee" })),
    ).rejects.toThrow(auditRefused);
    await expect(
      whileAuditInsertsFail(db, () => unwatchDataPoint(admin, { connectionId, dataPointId: "dp_order_total" })),
    ).rejects.toThrow(auditRefused);
    expect(await watched()).toEqual(before);
  });
});
