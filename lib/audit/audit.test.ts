import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEntries, recordAudit } from "./audit";
import { auditFilterSchema } from "./schemas";
import { setUpTestDatabase } from "@/lib/testing/database";

let tearDown: () => Promise<void>;
const connection = { id: "11111111-1111-4111-8111-111111111111", name: "Acme" };

beforeAll(async () => {
  ({ tearDown } = await setUpTestDatabase());
  for (let i = 0; i < 7; i++) {
    await recordAudit({ actor: { id: null, email: i % 2 ? "ada@example.com" : "bob@example.com" }, action: i < 5 ? "data_point.watched" : "connection.deleted", outcome: "success", connection, target: `dp_${i}` });
  }
  await recordAudit({ actor: { id: null, email: "cli" }, action: "user.created", outcome: "success", target: "x@example.com" });
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
    const page = await listAuditEntries(auditFilterSchema.parse({ connectionId: "nope", from: "yesterday", cursor: "!!" }));
    expect(page.entries).toHaveLength(8);
  });
});
