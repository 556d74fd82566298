import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { loadSeedFile, startEmulator, type RunningEmulator } from "@/emulator/server";
import type { Database } from "@/lib/db";
import { auditLog, connections, connectionSecrets } from "@/lib/db/schema";
import { decryptSecret, makeKeyring, needsRotation } from "@/lib/secrets";
import { setUpTestDatabase, whileAuditInsertsFail } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { readWebhookToken } from "@/lib/webhooks/url";

import { createConnection, deleteConnection, updateConnection } from "./connections";
import { getServiceConnection, listConnections } from "./repository";
import { rotateStoredSecrets } from "./rotate";
import { hashWebhookToken } from "./webhook-token";

const seed = loadSeedFile("emulator/seeds/demo.json");
const acme = seed.tenants.find((t) => t.name === "Acme")!;
const globex = seed.tenants.find((t) => t.name === "Globex")!;
const actor = { id: null, email: "test@example.com" } as const;
const blank = { serverKey: "", serverSecondaryKey: "", saveUnverified: false };

let emulator: RunningEmulator;
let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed, backgroundTick: false });
  process.env.SERVICE_BASE_URL_US = emulator.baseUrl("us");
  process.env.SERVICE_BASE_URL_EU = emulator.baseUrl("eu");
  process.env.SERVICE_BASE_URL_AU = emulator.baseUrl("au");
  process.env.SERVICE_BASE_URL_CA = emulator.baseUrl("ca");
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(async () => {
  await tearDown();
  await emulator.close();
});
beforeEach(async () => {
  await db.delete(connections);
  await fetch(`${emulator.url}/_emulator/faults`, { method: "DELETE" });
});

describe("creating a connection", () => {
  it("verifies the key, stores keys encrypted with fingerprints, and a webhook token by hash", async () => {
    const result = await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
      serverKey: acme.serverSecretKeys[0]!,
    });
    expect(result).toMatchObject({ ok: true, verified: true });
    if (!result.ok) return;
    const rows = await db.select().from(connectionSecrets).where(eq(connectionSecrets.connectionId, result.id));
    expect(rows.map((r) => r.kind).sort()).toEqual(["management", "server"]);
    for (const row of rows) {
      expect(row.ciphertext).not.toContain(row.kind === "management" ? acme.managementKey : acme.serverSecretKeys[0]);
      expect(row.last4).toHaveLength(4);
    }
    expect((await getServiceConnection(result.id))?.managementKey).toBe(acme.managementKey);
    const [summary] = await listConnections();
    expect(summary?.keys.management?.last4).toBe(acme.managementKey.slice(-4));
    expect(JSON.stringify(summary)).not.toContain(acme.managementKey);
    const token = await readWebhookToken(result.id);
    const [conn] = await db.select().from(connections).where(eq(connections.id, result.id));
    expect(conn?.webhookTokenHash).toBe(hashWebhookToken(token!));
    const audit = await db.select().from(auditLog).where(eq(auditLog.connectionId, result.id));
    expect(audit.map((a) => a.action)).toContain("connection.created");
    expect(JSON.stringify(audit)).not.toContain(acme.managementKey);
  });

  it("names the right region for a key used in the wrong one, and saves nothing", async () => {
    const result = await createConnection(actor, {
      name: "Globex",
      region: "us",
      managementKey: globex.managementKey,
      ...blank,
    });
    expect(result).toMatchObject({ ok: false, field: "region", suggestedRegion: "eu" });
    expect(!result.ok && result.error).toMatch(/belongs to the EU region/);
    expect(await listConnections()).toHaveLength(0);
  });

  it("says a key no region accepts is invalid", async () => {
    const result = await createConnection(actor, {
      name: "Nope",
      region: "us",
      managementKey: "not_a_real_key_123",
      ...blank,
    });
    expect(result).toMatchObject({ ok: false, field: "managementKey" });
  });

  it("offers to save unverified when the region cannot be reached, and does so when asked", async () => {
    await fetch(`${emulator.url}/_emulator/faults`, {
      method: "POST",
      body: JSON.stringify({ region: "us", mode: "500", count: 3 }),
    });
    const refused = await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
    });
    expect(refused).toMatchObject({ ok: false, canSaveUnverified: true });
    await fetch(`${emulator.url}/_emulator/faults`, {
      method: "POST",
      body: JSON.stringify({ region: "us", mode: "500", count: 3 }),
    });
    const saved = await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
      saveUnverified: true,
    });
    expect(saved).toMatchObject({ ok: true, verified: false });
    expect((await listConnections())[0]?.verifiedAt).toBeNull();
  });

  it("refuses a duplicate name, whatever its case", async () => {
    await createConnection(actor, { name: "Acme", region: "us", managementKey: acme.managementKey, ...blank });
    expect(
      await createConnection(actor, { name: "ACME", region: "us", managementKey: acme.managementKey, ...blank }),
    ).toMatchObject({ ok: false, field: "name" });
  });
});

describe("the same tenant connected twice", () => {
  it("names the connection that already holds the management key in that region, saves nothing, and saves when confirmed", async () => {
    const first = await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
    });
    if (!first.ok) throw new Error(first.error);
    const twin = await createConnection(actor, {
      name: "Acme again",
      region: "us",
      managementKey: `  ${acme.managementKey} `,
      ...blank,
    });
    expect(twin).toMatchObject({ ok: false, field: "managementKey", sameKeyAs: { id: first.id, name: "Acme" } });
    expect(!twin.ok && twin.error).toMatch(/^Acme already connects to this tenant with this management key/);
    // The answer and the audit log name the other connection, never the key.
    expect(JSON.stringify(twin)).not.toContain(acme.managementKey);
    expect(await listConnections()).toHaveLength(1);
    expect(JSON.stringify(await db.select().from(auditLog))).not.toContain(acme.managementKey);

    const confirmed = await createConnection(actor, {
      name: "Acme again",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
      allowSameKey: true,
    });
    expect(confirmed).toMatchObject({ ok: true });
    expect(await listConnections()).toHaveLength(2);
  });

  it("compares keys, not fingerprints: another key with the same last four characters is no duplicate", async () => {
    await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
      saveUnverified: true,
    });
    const sameLast4 = `different_prefix_${acme.managementKey.slice(-4)}`;
    const other = await createConnection(actor, { name: "Other", region: "us", managementKey: sameLast4, ...blank });
    // Not a duplicate: it goes on to the key check, which no region passes.
    expect(other).toMatchObject({ ok: false, field: "managementKey" });
    expect(other).not.toHaveProperty("sameKeyAs");
    expect(!other.ok && other.error).toMatch(/No region accepts/);
  });

  it("an edit that gives a connection another's key (and region) is stopped the same way; its own key is no duplicate", async () => {
    const a = await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
    });
    const g = await createConnection(actor, {
      name: "Globex",
      region: "eu",
      managementKey: globex.managementKey,
      ...blank,
    });
    if (!a.ok || !g.ok) throw new Error("seed");
    const base = {
      id: g.id,
      name: "Globex",
      region: "eu" as const,
      managementKey: "",
      ...blank,
      removeServerSecondaryKey: false,
    };
    // Re-entering its own key, or renaming it, is fine.
    expect(await updateConnection(actor, { ...base, managementKey: globex.managementKey })).toMatchObject({ ok: true });
    expect(await updateConnection(actor, { ...base, name: "Globex EU" })).toMatchObject({ ok: true });
    expect(
      await updateConnection(actor, { ...base, name: "Globex EU", region: "us", managementKey: acme.managementKey }),
    ).toMatchObject({
      ok: false,
      sameKeyAs: { id: a.id, name: "Acme" },
    });
    expect((await getServiceConnection(g.id))?.managementKey).toBe(globex.managementKey);
    expect(
      await updateConnection(actor, { ...base, region: "us", managementKey: acme.managementKey, allowSameKey: true }),
    ).toMatchObject({ ok: true });
  });
});

describe("editing and deleting", () => {
  it("keeps a key when its field is empty, replaces it when given, and audits the replacement", async () => {
    const created = await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
    });
    if (!created.ok) throw new Error(created.error);
    const base = {
      id: created.id,
      name: "Acme Corp",
      region: "us" as const,
      managementKey: "",
      ...blank,
      removeServerSecondaryKey: false,
    };
    expect(await updateConnection(actor, base)).toMatchObject({ ok: true });
    expect((await getServiceConnection(created.id))?.managementKey).toBe(acme.managementKey);
    expect(await updateConnection(actor, { ...base, serverKey: "new_server_key_abcd" })).toMatchObject({ ok: true });
    const [summary] = await listConnections();
    expect(summary).toMatchObject({ name: "Acme Corp", keys: { server: { last4: "abcd" } } });
    const actions = (await db.select().from(auditLog).where(eq(auditLog.connectionId, created.id))).map(
      (a) => `${a.action}:${a.target ?? ""}`,
    );
    expect(actions).toContain("connection.key_replaced:server");
    // Moving it to a region where its key is refused is stopped with the hint.
    expect(await updateConnection(actor, { ...base, region: "eu" })).toMatchObject({
      ok: false,
      suggestedRegion: "us",
    });
  });

  it("a management key that cannot be decrypted is replaced by entering it again", async () => {
    const created = await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
    });
    if (!created.ok) throw new Error(created.error);
    // Someone with write access to the database copied another connection's key into this row.
    const other = await insertTestConnection("Other", ["srv_other_connection_key_0001"]);
    const [copied] = await db.select().from(connectionSecrets).where(eq(connectionSecrets.connectionId, other.id));
    await db
      .update(connectionSecrets)
      .set({ ciphertext: copied!.ciphertext })
      .where(and(eq(connectionSecrets.connectionId, created.id), eq(connectionSecrets.kind, "management")));
    const base = {
      id: created.id,
      name: "Acme",
      region: "us" as const,
      managementKey: "",
      ...blank,
      removeServerSecondaryKey: false,
    };
    expect(await updateConnection(actor, { ...base, region: "eu" })).toMatchObject({
      ok: false,
      field: "managementKey",
      error: expect.stringContaining("cannot be read"),
    });
    expect(await updateConnection(actor, { ...base, managementKey: acme.managementKey })).toMatchObject({ ok: true });
    expect((await getServiceConnection(created.id))?.managementKey).toBe(acme.managementKey);
  });

  it("deletes only with the exact name typed", async () => {
    const created = await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
    });
    if (!created.ok) throw new Error(created.error);
    expect(await deleteConnection(actor, { id: created.id, confirmName: "acme" })).toMatchObject({ ok: false });
    expect(await listConnections()).toHaveLength(1);
    expect(await deleteConnection(actor, { id: created.id, confirmName: "Acme" })).toEqual({ ok: true });
    expect(await listConnections()).toHaveLength(0);
  });
});

describe("a change and its audit record land together or not at all", () => {
  const auditRefused = /insert into "audit_log"/;
  const createAcme = async () => {
    const created = await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
    });
    if (!created.ok) throw new Error(created.error);
    return created.id;
  };

  it("creating keeps neither the connection nor its keys when the audit record cannot be written", async () => {
    const input = {
      name: "Acme",
      region: "us" as const,
      managementKey: acme.managementKey,
      ...blank,
      serverKey: acme.serverSecretKeys[0]!,
    };
    await expect(whileAuditInsertsFail(db, () => createConnection(actor, input))).rejects.toThrow(auditRefused);
    expect(await db.select().from(connections)).toEqual([]);
    expect(await db.select().from(connectionSecrets)).toEqual([]);
  });

  it("editing keeps neither the new name nor the replaced key", async () => {
    const id = await createAcme();
    const edit = {
      id,
      name: "Acme Corp",
      region: "us" as const,
      managementKey: "",
      ...blank,
      serverKey: "new_server_key_abcd",
      removeServerSecondaryKey: false,
    };
    await expect(whileAuditInsertsFail(db, () => updateConnection(actor, edit))).rejects.toThrow(auditRefused);
    const [summary] = await listConnections();
    expect(summary?.name).toBe("Acme");
    expect(summary?.keys.server).toBeUndefined();
  });

  it("deleting keeps the connection and its keys", async () => {
    const id = await createAcme();
    await expect(whileAuditInsertsFail(db, () => deleteConnection(actor, { id, confirmName: "Acme" }))).rejects.toThrow(
      auditRefused,
    );
    expect((await getServiceConnection(id))?.managementKey).toBe(acme.managementKey);
    expect((await db.select().from(auditLog).where(eq(auditLog.connectionId, id))).map((a) => a.action)).toEqual([
      "connection.created",
    ]);
  });
});

describe("npm run secrets -- rotate", () => {
  it("re-encrypts every stored key and token under the new encryption key, and is idempotent", async () => {
    const created = await createConnection(actor, {
      name: "Acme",
      region: "us",
      managementKey: acme.managementKey,
      ...blank,
      serverKey: acme.serverSecretKeys[0]!,
    });
    if (!created.ok) throw new Error(created.error);
    const token = await readWebhookToken(created.id);
    const oldKey = process.env.CONSOLE_ENCRYPTION_KEY!;
    const newKey = Buffer.alloc(32, 7).toString("base64");
    const rotated = makeKeyring(newKey, [oldKey]);

    expect(await rotateStoredSecrets(rotated)).toEqual({ rebound: 0, reencrypted: 3, current: 0, unreadable: 0 });
    expect(await rotateStoredSecrets(rotated)).toEqual({ rebound: 0, reencrypted: 0, current: 3, unreadable: 0 });

    const onlyNew = makeKeyring(newKey);
    const secrets = await db.select().from(connectionSecrets);
    for (const s of secrets) expect(needsRotation(s.ciphertext, onlyNew)).toBe(false);
    const management = secrets.find((s) => s.kind === "management")!;
    const bound = { connectionId: created.id, kind: "management" } as const;
    expect(decryptSecret(management.ciphertext, bound, onlyNew)).toBe(acme.managementKey);
    const [conn] = await db.select().from(connections);
    expect(
      decryptSecret(conn!.webhookTokenCiphertext, { connectionId: created.id, kind: "webhook_token" }, onlyNew),
    ).toBe(token);
    // The old key alone can no longer read them.
    expect(() => decryptSecret(management.ciphertext, bound, makeKeyring(oldKey))).toThrow();
  });
});
