import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { webhookEvents } from "@/lib/db/schema";
import { TENANT_ID } from "@/lib/testing/webhooks";

import { at, filters, setUpSeededWebhookLog } from "./test-helpers";
import { getWebhookEvent, listWebhookEvents } from "./webhooks";

const log = setUpSeededWebhookLog();

describe("personal data by role", () => {
  it("support sees email and phone masked in the list and the detail (raw body included); admin in full", async () => {
    const asSupport = (await listWebhookEvents(filters({ connectionId: log.acme }), "support")).items;
    expect(asSupport.find((e) => e.eventId === "evt-1")?.email).toBe("a•••@example.com");
    expect(asSupport.find((e) => e.eventId === "evt-2")?.phoneNumber).toBe("+•••••••1234");
    const id = asSupport.find((e) => e.eventId === "evt-1")!.id;
    const detail = await getWebhookEvent(id, "support");
    expect(detail?.rawBody).not.toContain("alice@example.com");
    expect(detail?.piiMasked).toBe(true);
    const full = await getWebhookEvent(id, "admin");
    expect(full?.email).toBe("alice@example.com");
    expect(full?.rawBody).toContain("alice@example.com");
  });

  it("support sees the raw body of any event type masked, escaped values included", async () => {
    const rawBody = String.raw`{"type":"authenticator.created","data":{"email":"carol@example.com","phoneNumber":"+15550009876"}}`;
    const [row] = await log.db
      .insert(webhookEvents)
      .values({
        connectionId: log.acme,
        type: "authenticator.created",
        eventId: "evt-created-pii",
        tenantId: TENANT_ID,
        envelopeTime: at(60),
        firstReceivedAt: at(60),
        lastReceivedAt: at(60),
        signatureStatus: "unsigned",
        rawBody,
      })
      .returning({ id: webhookEvents.id });
    try {
      const detail = await getWebhookEvent(row!.id, "support");
      expect(JSON.parse(detail!.rawBody).data).toEqual({ email: "c•••@example.com", phoneNumber: "+•••••••9876" });
      expect((await getWebhookEvent(row!.id, "admin"))?.rawBody).toBe(rawBody);
    } finally {
      await log.db.execute(sql`delete from webhook_events where event_id = 'evt-created-pii'`);
    }
  });
});
