import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { forwardDeliveries, forwardDestinations } from "@/lib/db/forwarding-schema";

import { deliveryState, overallOutcome } from "./forwarding";
import { filters, setUpSeededWebhookLog } from "./test-helpers";
import { listWebhookEvents } from "./webhooks";

const log = setUpSeededWebhookLog();

async function destination(name: string) {
  const [row] = await log.db
    .insert(forwardDestinations)
    .values({ connectionId: log.acme, name, url: `https://${name.toLowerCase()}.example/hook` })
    .returning({ id: forwardDestinations.id });
  return row!.id;
}

describe("forwarding outcomes in the log", () => {
  it("a delivery is delivered, waiting before its first attempt, failing once retried or given up", () => {
    expect(deliveryState("delivered", 1)).toBe("delivered");
    expect(deliveryState("pending", 0)).toBe("waiting");
    expect(deliveryState("pending", 2)).toBe("failing");
    expect(deliveryState("failed", 5)).toBe("failing");
    expect(deliveryState("cancelled", 0)).toBe("cancelled");
  });

  it("a row fails if one destination fails, waits if one waits, and is delivered only when all are", () => {
    const d = (state: "delivered" | "waiting" | "failing" | "cancelled") => ({
      destinationName: state,
      state,
      attempts: 1,
    });
    expect(overallOutcome([d("delivered"), d("failing"), d("waiting")])).toBe("failing");
    expect(overallOutcome([d("delivered"), d("waiting")])).toBe("waiting");
    expect(overallOutcome([d("delivered"), d("cancelled")])).toBe("delivered");
    expect(overallOutcome([d("cancelled")])).toBeNull();
    expect(overallOutcome([])).toBeNull();
  });

  it("each row of a page says where its forwards stand, per destination, by the latest delivery of each", async () => {
    const archive = await destination("Archive");
    const crm = await destination("CRM");
    try {
      await log.db.insert(forwardDeliveries).values([
        { destinationId: archive, connectionId: log.acme, eventId: "evt-1", state: "failed", attempts: 5 },
        // A resend after the failure: the latest delivery is the one that counts.
        { destinationId: archive, connectionId: log.acme, eventId: "evt-1", state: "delivered", attempts: 1 },
        { destinationId: crm, connectionId: log.acme, eventId: "evt-1", state: "pending", attempts: 0 },
        { destinationId: crm, connectionId: log.acme, eventId: "evt-2", state: "pending", attempts: 3 },
      ]);
      const page = await listWebhookEvents(filters({ connectionId: log.acme }), "support");
      const row = (eventId: string) => page.items.find((e) => e.eventId === eventId)!.forwarding;
      expect(row("evt-1")).toEqual({
        outcome: "waiting",
        destinations: [
          { destinationName: "Archive", state: "delivered", attempts: 1 },
          { destinationName: "CRM", state: "waiting", attempts: 0 },
        ],
      });
      expect(row("evt-2").outcome).toBe("failing");
      expect(page.items.filter((e) => !["evt-1", "evt-2"].includes(e.eventId)).map((e) => e.forwarding)).toEqual(
        page.items.slice(2).map(() => ({ outcome: null, destinations: [] })),
      );
    } finally {
      await log.db.execute(sql`delete from forward_destinations where id in (${archive}, ${crm})`);
    }
  });
});
