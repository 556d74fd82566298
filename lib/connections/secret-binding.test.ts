import crypto from "node:crypto";

import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { alertNoticeTargets } from "@/lib/db/alerts-schema";
import { connections, connectionSecrets } from "@/lib/db/schema";
import { decryptSecret, encryptSecret, makeKeyring, SecretDecryptionError, type SecretBinding } from "@/lib/secrets";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { readWebhookToken, regenerateWebhookUrl, webhookReceiverInfo } from "@/lib/webhooks/url";

import { readConnectionSecret, readServerKeys } from "./keys";
import { getServiceConnection, sealKey } from "./repository";
import { bindLegacySecrets, rotateStoredSecrets } from "./rotate";
import type { SecretKindName } from "./types";
import { hashWebhookToken } from "./webhook-token";

/**
 * A stored ciphertext is bound to its row and purpose, so one copied elsewhere
 * by someone who can write to the database is refused and reported, never used or shown.
 */
const actor = { id: null, email: "admin@example.com" } as const;
const serverKey = "srv_key_that_must_never_be_a_url_1234";
const managementKey = "mgmt_key_that_must_stay_management_5678";
const envKey = () => process.env.CONSOLE_ENCRYPTION_KEY!;

let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());
beforeEach(async () => {
  await db.delete(connections);
  await db.delete(alertNoticeTargets);
});

/** What consoles before binding stored: the same envelope as v1, without associated data. */
function sealV1(plaintext: string, keyBase64 = envKey()): string {
  const key = Buffer.from(keyBase64, "base64");
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const id = crypto.createHash("sha256").update(key).digest("hex").slice(0, 8);
  return ["v1", id, ...[iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString("base64url"))].join(".");
}

/** A connection as a console before binding wrote it: token, management and server key all v1. */
async function insertLegacyConnection(
  target: Database,
  name: string,
  keyBase64 = envKey(),
): Promise<{ id: string; token: string }> {
  const id = crypto.randomUUID();
  const token = crypto.randomBytes(24).toString("base64url");
  await target.insert(connections).values({
    id,
    name,
    region: "us",
    webhookTokenHash: hashWebhookToken(token),
    webhookTokenCiphertext: sealV1(token, keyBase64),
  });
  await target.insert(connectionSecrets).values([
    {
      connectionId: id,
      kind: "management",
      ciphertext: sealV1(managementKey, keyBase64),
      last4: managementKey.slice(-4),
    },
    { connectionId: id, kind: "server", ciphertext: sealV1(serverKey, keyBase64), last4: serverKey.slice(-4) },
  ]);
  return { id, token };
}

async function storedSecret(target: Database, connectionId: string, kind: SecretKindName): Promise<string> {
  const [row] = await target
    .select({ ciphertext: connectionSecrets.ciphertext })
    .from(connectionSecrets)
    .where(and(eq(connectionSecrets.connectionId, connectionId), eq(connectionSecrets.kind, kind)));
  return row!.ciphertext;
}

async function storedToken(target: Database, connectionId: string): Promise<string> {
  const [row] = await target
    .select({ sealed: connections.webhookTokenCiphertext })
    .from(connections)
    .where(eq(connections.id, connectionId));
  return row!.sealed;
}

async function addManagementKey(connectionId: string, key = managementKey): Promise<void> {
  await db.insert(connectionSecrets).values(sealKey(connectionId, "management", key, null));
}

describe("a ciphertext copied to another row or purpose", () => {
  it("a server key copied into the webhook-token column is refused, and the page reports it instead of showing it", async () => {
    const { id } = await insertTestConnection("Swapped", [serverKey]);
    await db
      .update(connections)
      .set({ webhookTokenCiphertext: await storedSecret(db, id, "server") })
      .where(eq(connections.id, id));

    await expect(readWebhookToken(id)).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(readWebhookToken(id)).rejects.toThrow(/not bound to this connection and purpose/);
    const info = await webhookReceiverInfo(id);
    expect(info).toMatchObject({
      connectionName: "Swapped",
      url: null,
      unreadable: "The stored webhook URL cannot be read: it is not bound to this connection. Regenerate it.",
    });
    expect(JSON.stringify(info)).not.toContain(serverKey);

    // The way out the message names: regenerating seals a fresh token for this connection.
    const regenerated = await regenerateWebhookUrl(actor, { connectionId: id, confirmName: "Swapped" });
    expect(regenerated.ok).toBe(true);
    expect((await webhookReceiverInfo(id))?.url).toBe(regenerated.ok ? regenerated.url : "");
  });

  it("a management key copied into the server kind, or into another connection, is refused", async () => {
    const { id } = await insertTestConnection("Acme", [serverKey]);
    await addManagementKey(id);
    await db
      .update(connectionSecrets)
      .set({ ciphertext: await storedSecret(db, id, "management") })
      .where(and(eq(connectionSecrets.connectionId, id), eq(connectionSecrets.kind, "server")));
    await expect(readConnectionSecret(id, "server")).rejects.toThrow(SecretDecryptionError);
    await expect(readServerKeys(id)).rejects.toThrow(/not bound to this connection and purpose/);
    expect(await readConnectionSecret(id, "management")).toBe(managementKey);

    const { id: other } = await insertTestConnection("Globex");
    await addManagementKey(other, "mgmt_key_of_globex_0000");
    await db
      .update(connectionSecrets)
      .set({ ciphertext: await storedSecret(db, id, "management") })
      .where(and(eq(connectionSecrets.connectionId, other), eq(connectionSecrets.kind, "management")));
    await expect(getServiceConnection(other)).rejects.toThrow(SecretDecryptionError);
    expect((await getServiceConnection(id))?.managementKey).toBe(managementKey);
  });
});

describe("values stored before binding (v1)", () => {
  it("are refused when used, with the command that re-binds them", async () => {
    const { id } = await insertLegacyConnection(db, "Legacy");
    await expect(readConnectionSecret(id, "server")).rejects.toThrow(/npm run secrets -- rotate/);
    await expect(getServiceConnection(id)).rejects.toThrow(SecretDecryptionError);
    expect(await webhookReceiverInfo(id)).toMatchObject({
      url: null,
      unreadable: expect.stringContaining("npm run secrets -- rotate"),
    });
  });

  it("are re-bound to their row by rotate, which is idempotent", async () => {
    const { id, token } = await insertLegacyConnection(db, "Legacy");
    expect(await rotateStoredSecrets()).toEqual({ rebound: 3, reencrypted: 0, current: 0, unreadable: 0 });
    expect(await rotateStoredSecrets()).toEqual({ rebound: 0, reencrypted: 0, current: 3, unreadable: 0 });
    expect(await readWebhookToken(id)).toBe(token);
    expect(await readServerKeys(id)).toEqual([serverKey]);
    expect((await getServiceConnection(id))?.managementKey).toBe(managementKey);
    expect(await storedToken(db, id)).toMatch(/^v2\./);
  });

  it("under an older encryption key are re-bound and re-encrypted under the current one, beside bound values", async () => {
    const oldKey = envKey();
    const newKey = Buffer.alloc(32, 9).toString("base64");
    const legacy = await insertLegacyConnection(db, "Legacy", oldKey);
    const bound = await insertTestConnection("Bound", [serverKey]);
    const rotated = makeKeyring(newKey, [oldKey]);

    expect(await rotateStoredSecrets(rotated)).toEqual({ rebound: 3, reencrypted: 2, current: 0, unreadable: 0 });
    expect(await rotateStoredSecrets(rotated)).toEqual({ rebound: 0, reencrypted: 0, current: 5, unreadable: 0 });

    const onlyNew = makeKeyring(newKey);
    const read = async (connectionId: string, kind: SecretKindName | "webhook_token") =>
      decryptSecret(
        kind === "webhook_token" ? await storedToken(db, connectionId) : await storedSecret(db, connectionId, kind),
        { connectionId, kind },
        onlyNew,
      );
    expect(await read(legacy.id, "webhook_token")).toBe(legacy.token);
    expect(await read(legacy.id, "management")).toBe(managementKey);
    expect(await read(bound.id, "webhook_token")).toBe(bound.token);
    expect(await read(bound.id, "server")).toBe(serverKey);
  });

  it("rotate leaves a bound value copied into another row alone, and counts it unreadable", async () => {
    const { id } = await insertTestConnection("Swapped", [serverKey]);
    const swapped = await storedSecret(db, id, "server");
    await db.update(connections).set({ webhookTokenCiphertext: swapped }).where(eq(connections.id, id));
    const rotated = makeKeyring(Buffer.alloc(32, 9).toString("base64"), [envKey()]);
    expect(await rotateStoredSecrets(rotated)).toEqual({ rebound: 0, reencrypted: 1, current: 0, unreadable: 1 });
    expect(await storedToken(db, id)).toBe(swapped);
  });
});

describe("an alert notice target's secret (console-wide, bound to its target)", () => {
  const targetSecret = `whsec_${Buffer.alloc(24, 7).toString("base64")}`;
  async function insertTarget(name: string): Promise<{ id: string; sealed: string }> {
    const id = crypto.randomUUID();
    const sealed = encryptSecret(targetSecret, { kind: "alert_target_secret", targetId: id });
    await db
      .insert(alertNoticeTargets)
      .values({ id, name, url: "https://hooks.example.com/alerts", secretCiphertext: sealed });
    return { id, sealed };
  }
  const storedTarget = async (id: string) =>
    (await db.select().from(alertNoticeTargets).where(eq(alertNoticeTargets.id, id)))[0]!.secretCiphertext;

  it("is resealed under the current key by rotate, beside a connection's values, and stays bound to its target", async () => {
    const oldKey = envKey();
    const newKey = Buffer.alloc(32, 9).toString("base64");
    const target = await insertTarget("Ops chat");
    await insertTestConnection("Bound", [serverKey]);
    const rotated = makeKeyring(newKey, [oldKey]);

    expect(await rotateStoredSecrets(rotated)).toEqual({ rebound: 0, reencrypted: 3, current: 0, unreadable: 0 });
    expect(await rotateStoredSecrets(rotated)).toEqual({ rebound: 0, reencrypted: 0, current: 3, unreadable: 0 });
    const resealed = await storedTarget(target.id);
    expect(resealed).not.toBe(target.sealed);
    expect(decryptSecret(resealed, { kind: "alert_target_secret", targetId: target.id }, makeKeyring(newKey))).toBe(
      targetSecret,
    );
  });

  it("copied into another target, is left alone by rotate and counted unreadable", async () => {
    const first = await insertTarget("Ops chat");
    const second = await insertTarget("Pager");
    await db
      .update(alertNoticeTargets)
      .set({ secretCiphertext: first.sealed })
      .where(eq(alertNoticeTargets.id, second.id));
    const rotated = makeKeyring(Buffer.alloc(32, 9).toString("base64"), [envKey()]);
    expect(await rotateStoredSecrets(rotated)).toEqual({ rebound: 0, reencrypted: 1, current: 0, unreadable: 1 });
    expect(await storedTarget(second.id)).toBe(first.sealed);
  });
});

describe("the automatic upgrade when the console starts", () => {
  it("re-binds every v1 value of a database from before binding, once", async () => {
    const { startUp } = await import("@/lib/startup");
    const legacy = await insertLegacyConnection(db, "Legacy");
    await startUp();
    const bindings: Array<[SecretBinding, string, string]> = [
      [{ connectionId: legacy.id, kind: "webhook_token" }, await storedToken(db, legacy.id), legacy.token],
      [{ connectionId: legacy.id, kind: "management" }, await storedSecret(db, legacy.id, "management"), managementKey],
      [{ connectionId: legacy.id, kind: "server" }, await storedSecret(db, legacy.id, "server"), serverKey],
    ];
    for (const [binding, sealed, plaintext] of bindings) {
      expect(sealed).toMatch(/^v2\./);
      expect(decryptSecret(sealed, binding)).toBe(plaintext);
    }

    // After the upgrade a v1 value can only have been planted: starting again does not bind it to its new row.
    const planted = sealV1(serverKey);
    await db.update(connections).set({ webhookTokenCiphertext: planted }).where(eq(connections.id, legacy.id));
    await startUp();
    expect(await storedToken(db, legacy.id)).toBe(planted);
    expect(() => decryptSecret(planted, { connectionId: legacy.id, kind: "webhook_token" })).toThrow(
      /npm run secrets -- rotate/,
    );
  });

  it("reports what it re-bound, and does nothing on a database with nothing to bind", async () => {
    expect(await bindLegacySecrets(db)).toBeUndefined();
    await insertTestConnection("Bound", [serverKey]);
    expect(await bindLegacySecrets(db)).toBeUndefined();
    await db.delete(connections);
    await insertLegacyConnection(db, "Legacy");
    expect(await bindLegacySecrets(db)).toEqual({ rebound: 3, reencrypted: 0, current: 0, unreadable: 0 });
  });
});
