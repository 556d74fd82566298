import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getDb } from "@/lib/db";
import { setUpTestDatabase } from "@/lib/testing/database";

import { listAuditEntries, recordAudit, recordRepeatedAudit } from "./audit";
import { auditFilterSchema } from "./schemas";

let tearDown: () => Promise<void>;
const connection = { id: "11111111-1111-4111-8111-111111111111", name: "Acme" };

beforeAll(async () => {
  ({ tearDown } = await setUpTestDatabase());
  for (let i = 0; i < 7; i++) {
    await recordAudit({
      actor: { id: null, email: i % 2 ? "ada@example.com" : "bob@example.com" },
      action: i < 5 ? "data_point.watched" : "connection.deleted",
      outcome: "success",
      connection,
      target: `dp_${i}`,
    });
  }
  await recordAudit({
    actor: { id: null, email: "cli" },
    action: "user.created",
    outcome: "success",
    target: "x@example.com",
  });
});
afterAll(async () => tearDown());

describe("listAuditEntries", () => {
  it("pages newest first with a cursor, without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAuditEntries(auditFilterSchema.parse({ cursor }), 3);
      seen.push(...page.entries.map((e) => e.target ?? ""));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(["x@example.com", "dp_6", "dp_5", "dp_4", "dp_3", "dp_2", "dp_1", "dp_0"]);
  });

  it("filters by actor, action, connection and time", async () => {
    const byActor = await listAuditEntries(auditFilterSchema.parse({ actor: "ADA@" }));
    expect(byActor.entries.map((e) => e.target)).toEqual(["dp_5", "dp_3", "dp_1"]);
    const byAction = await listAuditEntries(auditFilterSchema.parse({ action: "connection.deleted" }));
    expect(byAction.entries).toHaveLength(2);
    const byConnection = await listAuditEntries(auditFilterSchema.parse({ connectionId: connection.id }));
    expect(byConnection.entries).toHaveLength(7);
    const future = await listAuditEntries(auditFilterSchema.parse({ from: "2999-01-01T00:00" }));
    expect(future.entries).toHaveLength(0);
    const past = await listAuditEntries(auditFilterSchema.parse({ to: "2000-01-01T00:00" }));
    expect(past.entries).toHaveLength(0);
    // A LIKE wildcard in the actor filter is taken literally.
    expect((await listAuditEntries(auditFilterSchema.parse({ actor: "%" }))).entries).toHaveLength(0);
  });

  it("ignores malformed filters instead of failing", async () => {
    const page = await listAuditEntries(
      auditFilterSchema.parse({ connectionId: "nope", from: "yesterday", cursor: "!!" }),
    );
    expect(page.entries).toHaveLength(8);
  });
});

describe("recordRepeatedAudit", () => {
  it("keeps one record per (action, actor email, target) per window, counting the repeats, and the list shows the count", async () => {
    const db = await getDb();
    const window = (seconds: number) => ({ ms: 15 * 60_000, now: new Date(Date.UTC(2031, 0, 1, 10, 0, seconds)) });
    const refusal = (email: string | null, target?: string) => ({
      actor: { id: null, email },
      action: "sign_in.throttled" as const,
      outcome: "denied" as const,
      target,
      details: { reason: "pair" },
    });
    for (let i = 0; i < 3; i++)
      await db.transaction((tx) => recordRepeatedAudit(refusal("eve@example.com", "198.51.100.9"), window(i), tx));
    // Another target, no actor, or the next window: records of their own.
    await db.transaction((tx) => recordRepeatedAudit(refusal("eve@example.com", "198.51.100.10"), window(5), tx));
    await db.transaction((tx) => recordRepeatedAudit(refusal(null, "198.51.100.9"), window(6), tx));
    await Promise.all(
      [0, 1].map(() =>
        db.transaction((tx) => recordRepeatedAudit(refusal(null, "198.51.100.9"), window(15 * 60 + 1), tx)),
      ),
    );
    const { entries } = await listAuditEntries(auditFilterSchema.parse({ action: "sign_in.throttled" }));
    expect(entries.map((e) => [e.actorEmail, e.target, e.at, e.repeats])).toEqual([
      [null, "198.51.100.9", "2031-01-01T10:15:01.000Z", { count: 2, lastAt: "2031-01-01T10:15:01.000Z" }],
      [null, "198.51.100.9", "2031-01-01T10:00:06.000Z", { count: 1, lastAt: "2031-01-01T10:00:06.000Z" }],
      [
        "eve@example.com",
        "198.51.100.10",
        "2031-01-01T10:00:05.000Z",
        { count: 1, lastAt: "2031-01-01T10:00:05.000Z" },
      ],
      ["eve@example.com", "198.51.100.9", "2031-01-01T10:00:00.000Z", { count: 3, lastAt: "2031-01-01T10:00:02.000Z" }],
    ]);
    // An ordinary record has no count.
    expect(
      (await listAuditEntries(auditFilterSchema.parse({ action: "user.created" }))).entries[0]?.repeats,
    ).toBeNull();
  });
});
