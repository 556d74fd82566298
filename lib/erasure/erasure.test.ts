import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { recordAudit } from "@/lib/audit/audit";
import { rowsOf, type Database } from "@/lib/db";
import { endUserErasures } from "@/lib/db/erasure-schema";
import { auditLog, webhookEvents } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { expiredEvent, insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { eraseConfirmedEndUserData, eraseEndUserData, previewEndUserErasure } from "./erasure";
import {
  addEchoingDestination,
  admin,
  post,
  scanForValues,
  seedPerson,
  startEchoingHandler,
  type Person,
} from "./test-helpers";
import { hashUserId, userPseudonym } from "./user-hash";

// Erasing an end user's data, on a real database seeded through the real receiver, forwarding and
// replays: afterwards no text, JSON or array column of any table holds the user's id, email or phone.

const x: Person = { userId: "usr_x", email: "xavier@example.com", phone: "+15550001111" };
const y: Person = { userId: "usr_y", email: "yolanda@example.com", phone: "+15550002222" };
const values = (p: Person) => [p.userId, p.email, p.phone];

let db: Database;
let tearDown: () => Promise<void>;
let handler: Awaited<ReturnType<typeof startEchoingHandler>>;
let acme: { id: string; token: string };
let globex: { id: string; token: string };

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  handler = await startEchoingHandler();
  acme = await insertTestConnection("Acme", [KEY1]);
  globex = await insertTestConnection("Globex", [KEY1]);
  const destinationId = await addEchoingDestination(acme.id, handler.url);
  for (const person of [x, y]) await seedPerson(db, person, { acme, globex, destinationId });
});
afterAll(async () => {
  await handler.close();
  await tearDown();
});

const erasureRecords = () =>
  db.select().from(auditLog).where(eq(auditLog.action, "end_user.erased")).orderBy(auditLog.id);

describe("erasing a user in every connection", () => {
  it("counts first what it would erase, per connection, and erases nothing doing so", async () => {
    const before = await scanForValues(db, values(x));
    const preview = await previewEndUserErasure({ userId: x.userId, connectionId: null });
    expect(preview).toEqual({
      ok: true,
      userId: x.userId,
      connectionName: null,
      connections: [
        { connectionId: acme.id, connectionName: "Acme", events: 2, rejections: 1, deliveries: 3, attempts: 2 },
        { connectionId: globex.id, connectionName: "Globex", events: 1, rejections: 1, deliveries: 0, attempts: 0 },
      ],
      total: { events: 3, rejections: 2, deliveries: 3, attempts: 2, watches: 1, auditRecords: 2, replays: 1 },
      erasedBefore: { count: 0, lastAt: null },
    });
    expect(await scanForValues(db, values(x))).toEqual(before);
  });

  it("leaves no row of any table holding the id, email or phone, every other user's data as it was, and an audit record without them", async () => {
    const found = await scanForValues(db, values(x));
    // The seed reaches every place the console keeps them: so a place the erasure missed would show.
    expect(Object.keys(found)).toEqual(
      expect.arrayContaining([
        "audit_log.details",
        "audit_log.target",
        "data_point_watches.data_point_id",
        "data_point_watches.snapshot",
        "forward_attempts.response_body",
        "forward_replays.filters",
        "webhook_events.email",
        "webhook_events.phone_number",
        "webhook_events.raw_body",
        "webhook_events.user_id",
      ]),
    );
    const others = await scanForValues(db, values(y));
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
    const result = await eraseEndUserData(admin, { userId: x.userId, connectionId: null });
    stderr.mockRestore();

    const { hash } = hashUserId(x.userId);
    expect(result).toEqual({
      ok: true,
      connectionId: null,
      userIdHash: hash,
      erased: { events: 3, rejections: 2, deliveries: 3, attempts: 2, watches: 1, auditRecords: 2, replays: 1 },
    });
    expect(await scanForValues(db, values(x))).toEqual({});
    expect(await scanForValues(db, values(y))).toEqual(others);
    for (const value of values(x)) expect(written.join("")).not.toContain(value);

    const [record, ...more] = await erasureRecords();
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      actorEmail: admin.email,
      outcome: "success",
      connectionId: null,
      target: userPseudonym(hash),
    });
    expect(record!.details).toMatchObject({ userIdHash: hash, scope: "all", erased: result.ok ? result.erased : null });
    expect(await db.select().from(endUserErasures)).toEqual([]);
    // What happened stays said, with whom it named erased.
    const lookups = await db
      .select({ target: auditLog.target })
      .from(auditLog)
      .where(eq(auditLog.action, "user_authenticators.viewed"))
      .orderBy(auditLog.id);
    expect(lookups).toEqual([{ target: "[erased]" }, { target: y.userId }]);
  });

  it("knows a second request for the same user by its hash, and finds nothing left", async () => {
    const preview = await previewEndUserErasure({ userId: x.userId, connectionId: null });
    expect(preview).toMatchObject({
      ok: true,
      connections: [],
      total: { events: 0, rejections: 0, deliveries: 0, attempts: 0, watches: 0, auditRecords: 0, replays: 0 },
    });
    expect(preview.ok && preview.erasedBefore.count).toBe(1);
    const again = await eraseEndUserData(admin, { userId: x.userId, connectionId: null });
    expect(again).toMatchObject({ ok: true, erased: { events: 0, auditRecords: 0 } });
    const [first, second] = await erasureRecords();
    expect((second!.details as { userIdHash: string }).userIdHash).toBe(
      (first!.details as { userIdHash: string }).userIdHash,
    );
  });
});

describe("erasing a user in one connection", () => {
  it("erases only that connection's data of the user, names the connection in its record, and refuses what does not parse", async () => {
    const result = await eraseEndUserData(admin, { userId: y.userId, connectionId: globex.id });
    expect(result).toMatchObject({
      ok: true,
      connectionId: globex.id,
      erased: { events: 1, rejections: 1, deliveries: 0, watches: 0, auditRecords: 0, replays: 0 },
    });
    const left = await db
      .select({ connectionId: webhookEvents.connectionId })
      .from(webhookEvents)
      .where(eq(webhookEvents.userId, y.userId));
    expect(left.map((row) => row.connectionId)).toEqual([acme.id]);
    const [record] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "end_user.erased"), eq(auditLog.connectionId, globex.id)));
    expect(record).toMatchObject({
      connectionName: "Globex",
      details: expect.objectContaining({ scope: "connection" }),
    });

    expect(await eraseEndUserData(admin, { userId: " ", connectionId: null })).toEqual({
      ok: false,
      failure: "invalid_request",
      error: "Enter a user id.",
    });
    expect(await eraseEndUserData(admin, { userId: y.userId, connectionId: crypto.randomUUID() })).toMatchObject({
      ok: false,
      failure: "not_found",
    });
    expect(
      await eraseConfirmedEndUserData(admin, { userId: y.userId, connectionId: null, confirmUserId: "usr_Y" }),
    ).toMatchObject({ ok: false, error: "Type usr_y exactly to confirm." });
    expect(
      await db
        .select({ n: sql<number>`count(*)::int` })
        .from(webhookEvents)
        .where(eq(webhookEvents.userId, y.userId)),
    ).toEqual([{ n: 1 }]);
  });

  it("takes only what holds the id whole: not a longer id that starts with it, in an event's column or body, or an audit record", async () => {
    const longer = "usr_p_longer";
    for (const target of ["usr_p", "usr_p2"]) {
      await recordAudit({
        actor: admin,
        action: "user_authenticators.viewed",
        outcome: "success",
        connection: { id: acme.id, name: "Acme" },
        target,
      });
    }
    expect(await post(acme.token, expiredEvent({ data: { userId: longer } }))).toBe(200);
    expect(
      await post(acme.token, {
        ...expiredEvent(),
        type: "authenticator.deleted",
        data: { userId: longer, note: "not usr_p but usr_p_longer" },
      }),
    ).toBe(200);
    expect(
      await post(acme.token, { ...expiredEvent(), type: "authenticator.deleted", data: { userIds: ["usr_p"] } }),
    ).toBe(200);
    const result = await eraseEndUserData(admin, { userId: "usr_p", connectionId: acme.id });
    // The last holds the id as a value, in an array: it names the user. The first two hold it only inside longer
    // strings.
    expect(result).toMatchObject({ ok: true, erased: { events: 1 } });
    const [left] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from webhook_events where strpos(raw_body, ${longer}) > 0`),
    );
    expect(left!.n).toBe(2);
    const lookups = await db
      .select({ target: auditLog.target })
      .from(auditLog)
      .where(eq(auditLog.action, "user_authenticators.viewed"))
      .orderBy(auditLog.id);
    expect(lookups.slice(-2)).toEqual([{ target: "[erased]" }, { target: "usr_p2" }]);
  });
});
