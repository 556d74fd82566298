import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog } from "@/lib/db/schema";
import { setUpTestDatabase, whileAuditInsertsFail } from "@/lib/testing/database";
import { expiredEvent, insertTestConnection, webhookRequest } from "@/lib/testing/webhooks";

import { receiveWebhook } from "./receive";
import { regenerateWebhookUrl, webhookReceiverInfo, webhookUrlFor } from "./url";

const actor = { id: null, email: "admin@example.com" } as const;
let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

describe("webhook URL", () => {
  it("is NEXTAUTH_URL + /api/webhooks/<token>, and warns when no server key is stored", async () => {
    const { id, token } = await insertTestConnection("Unsigned");
    expect(await webhookUrlFor(id)).toBe(`http://127.0.0.1:3000/api/webhooks/${token}`);
    expect(await webhookReceiverInfo(id)).toMatchObject({ connectionName: "Unsigned", signed: false });
  });

  it("regenerating needs the typed name, invalidates the old URL at once and is audited", async () => {
    const { id, token: oldToken } = await insertTestConnection("Rotating", ["srv_key_for_regeneration_test"]);
    expect(await regenerateWebhookUrl(actor, { connectionId: id, confirmName: "rotating" })).toMatchObject({
      ok: false,
    });
    expect(await webhookUrlFor(id)).toContain(oldToken);

    const result = await regenerateWebhookUrl(actor, { connectionId: id, confirmName: "Rotating" });
    expect(result.ok).toBe(true);
    const newToken = result.ok ? result.url.split("/").pop()! : "";
    expect(newToken).not.toBe(oldToken);
    expect(newToken.length).toBeGreaterThanOrEqual(32);

    const keys = ["srv_key_for_regeneration_test"];
    expect((await receiveWebhook(webhookRequest(oldToken, expiredEvent(), { keys }))).status).toBe(404);
    expect((await receiveWebhook(webhookRequest(newToken, expiredEvent(), { keys }))).status).toBe(200);
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "webhook.url_regenerated"));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ connectionName: "Rotating", outcome: "success" });
  });

  it("keeps the old URL when the regeneration cannot be audited", async () => {
    const { id, token } = await insertTestConnection("Unaudited");
    await expect(
      whileAuditInsertsFail(db, () => regenerateWebhookUrl(actor, { connectionId: id, confirmName: "Unaudited" })),
    ).rejects.toThrow(/insert into "audit_log"/);
    expect(await webhookUrlFor(id)).toContain(token);
  });
});
