import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { deleteConnection } from "@/lib/connections/connections";
import type { Database } from "@/lib/db";
import { connectionSecrets } from "@/lib/db/schema";
import { encryptSecret, fingerprint } from "@/lib/secrets";
import { setUpTestDatabase } from "@/lib/testing/database";
import { expiredEvent, insertTestConnection, webhookRequest } from "@/lib/testing/webhooks";

import { receiveWebhook } from "./receive";
import { findReceiver, forgetReceiver, RECEIVER_CACHE_MS } from "./receivers";
import { regenerateWebhookUrl } from "./url";

const OLD_KEY = "test_srv_old_000000000000000000000000001";
const NEW_KEY = "test_srv_new_000000000000000000000000002";
const actor = { id: null, email: "admin@example.com" };

let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

/** Replaces the stored server key behind the console's back, as another instance's edit would. */
async function replaceKeyElsewhere(connectionId: string, key: string) {
  await db
    .update(connectionSecrets)
    .set({ ciphertext: encryptSecret(key, { connectionId, kind: "server" }), last4: fingerprint(key) })
    .where(eq(connectionSecrets.connectionId, connectionId));
}

describe("the receiver cache", () => {
  it("keeps a connection's keys for RECEIVER_CACHE_MS, then reads them again", async () => {
    const connection = await insertTestConnection("Cached", [OLD_KEY]);
    const now = Date.now();
    expect(await findReceiver(connection.token, now)).toEqual({ id: connection.id, keys: [OLD_KEY] });
    await replaceKeyElsewhere(connection.id, NEW_KEY);
    expect((await findReceiver(connection.token, now + RECEIVER_CACHE_MS - 1))?.keys).toEqual([OLD_KEY]);
    expect((await findReceiver(connection.token, now + RECEIVER_CACHE_MS))?.keys).toEqual([NEW_KEY]);
  });

  it("forgets a connection at once when told (an edit of its keys on this instance)", async () => {
    const connection = await insertTestConnection("Edited", [OLD_KEY]);
    await findReceiver(connection.token);
    await replaceKeyElsewhere(connection.id, NEW_KEY);
    forgetReceiver(connection.id);
    expect((await findReceiver(connection.token))?.keys).toEqual([NEW_KEY]);
  });

  it("forgets at once what a change through another copy of the modules forgets (Next bundles the actions and the webhook route apart)", async () => {
    const edited = await insertTestConnection("Edited elsewhere", [OLD_KEY]);
    const deleted = await insertTestConnection("Deleted elsewhere", [OLD_KEY]);
    await findReceiver(edited.token);
    await findReceiver(deleted.token);
    await replaceKeyElsewhere(edited.id, NEW_KEY);
    vi.resetModules();
    const actionsCopy = {
      receivers: await import("./receivers"),
      connections: await import("@/lib/connections/connections"),
    };
    actionsCopy.receivers.forgetReceiver(edited.id);
    expect((await findReceiver(edited.token))?.keys).toEqual([NEW_KEY]);
    // The other copy of connections.ts deletes it; this copy's cache hears of it.
    expect(
      await actionsCopy.connections.deleteConnection(actor, { id: deleted.id, confirmName: "Deleted elsewhere" }),
    ).toEqual({ ok: true });
    expect(await findReceiver(deleted.token)).toBeNull();
  });

  it("a regenerated URL stops working at once, and the new one works", async () => {
    const connection = await insertTestConnection("Regenerated", [OLD_KEY]);
    const post = (token: string) => receiveWebhook(webhookRequest(token, expiredEvent(), { keys: [OLD_KEY] }));
    expect((await post(connection.token)).status).toBe(200);
    const regenerated = await regenerateWebhookUrl(actor, { connectionId: connection.id, confirmName: "Regenerated" });
    if (!regenerated.ok) throw new Error(regenerated.error);
    expect((await post(connection.token)).status).toBe(404);
    expect((await post(regenerated.url.split("/").pop()!)).status).toBe(200);
  });

  it("a deleted connection's URL is unknown at once", async () => {
    const connection = await insertTestConnection("Deleted", [OLD_KEY]);
    const post = () => receiveWebhook(webhookRequest(connection.token, expiredEvent(), { keys: [OLD_KEY] }));
    expect((await post()).status).toBe(200);
    expect(await deleteConnection(actor, { id: connection.id, confirmName: "Deleted" })).toEqual({ ok: true });
    expect((await post()).status).toBe(404);
  });
});
