import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { rotateStoredSecrets } from "@/lib/connections/rotate";
import type { Database } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { auditLog } from "@/lib/db/schema";
import { decryptSecret, makeKeyring } from "@/lib/secrets";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { SERVICE_SIGNING_NEEDS_SERVER_KEY } from "./constants";
import { createDestination, listDestinations, removeDestination } from "./destinations";
import { deliveriesOf, LOCAL_POLICY, receiveEvent, startReceiver } from "./test-helpers";
import { forwardDueDeliveries } from "./worker";

// Adding and removing destinations: what is refused (and that nothing is then saved), what is audited,
// and the guard that holds at connect time whatever was saved.

const admin = { id: null, email: "admin@example.com" };
let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

const input = (connectionId: string, overrides: Record<string, unknown> = {}) => ({
  connectionId,
  name: "Tenant app",
  url: "http://127.0.0.1:9/hook",
  signing: "service" as const,
  eventTypes: [],
  verificationMethods: [],
  ...overrides,
});

const destinationCount = async (connectionId: string) =>
  (await db.select().from(forwardDestinations).where(eq(forwardDestinations.connectionId, connectionId))).length;

describe("adding a destination", () => {
  it("refuses a URL against the rules, in words naming the rule, and saves nothing", async () => {
    const { id } = await insertTestConnection("Refusals", [KEY1]);
    const cases: Array<[string, RegExp]> = [
      ["http://hooks.example.test/in", /https/],
      ["https://user:secret@hooks.example.test/in", /user name or password/],
      ["https://127.0.0.2:9/hook", /127\.0\.0\.2 is not allowed \(loopback\)/],
      ["https://[::1]:9/hook", /::1.*not allowed/i],
      // A name that resolves (through this machine's hosts file) to a loopback address not allowed.
      ["https://localhost:9/hook", /not allowed/i],
      ["ftp://127.0.0.1/hook", /https/],
      ["not a url", /URL/],
    ];
    for (const [url, words] of cases) {
      const result = await createDestination(admin, input(id, { url }), LOCAL_POLICY);
      expect(result, url).toMatchObject({ ok: false, field: "url", error: expect.stringMatching(words) });
      expect(result.ok ? "" : result.error, url).toMatch(/^[A-Z].*\.$/);
    }
    expect(await destinationCount(id)).toBe(0);
  });

  it("refuses signing as the service without a server key, offering Standard Webhooks; a duplicate name; a bad name", async () => {
    const unsigned = await insertTestConnection("No server key");
    expect(await createDestination(admin, input(unsigned.id), LOCAL_POLICY)).toEqual({
      ok: false,
      error: SERVICE_SIGNING_NEEDS_SERVER_KEY,
      field: "signing",
    });
    expect(SERVICE_SIGNING_NEEDS_SERVER_KEY).toMatch(/Standard Webhooks/);
    expect(
      await createDestination(admin, input(unsigned.id, { signing: "standard_webhooks" }), LOCAL_POLICY),
    ).toMatchObject({ ok: true });

    expect(
      await createDestination(
        admin,
        input(unsigned.id, { signing: "standard_webhooks", name: "TENANT APP" }),
        LOCAL_POLICY,
      ),
    ).toMatchObject({
      ok: false,
      field: "name",
      error: expect.stringMatching(/already has a destination named/),
    });
    expect(await createDestination(admin, input(unsigned.id, { name: "Line\nbreak" }), LOCAL_POLICY)).toMatchObject({
      ok: false,
      field: "name",
    });
    expect(
      await createDestination(admin, input(unsigned.id, { eventTypes: ["not a type!"] }), LOCAL_POLICY),
    ).toMatchObject({ ok: false });
    expect(await destinationCount(unsigned.id)).toBe(1);
  });

  it("audits who added and removed it, with the URL's origin and never a secret", async () => {
    const { id } = await insertTestConnection("Audited");
    const created = await createDestination(
      admin,
      input(id, { signing: "standard_webhooks", url: "http://127.0.0.1:9/hook?token=abc" }),
      LOCAL_POLICY,
    );
    if (!created.ok) throw new Error(created.error);
    expect(await removeDestination(admin, { connectionId: id, destinationId: created.id })).toEqual({ ok: true });
    expect(await removeDestination(admin, { connectionId: id, destinationId: created.id })).toEqual({
      ok: false,
      error: "This destination no longer exists.",
    });
    const records = await db.select().from(auditLog).where(eq(auditLog.connectionId, id)).orderBy(auditLog.id);
    expect(records.map((r) => [r.action, r.actorEmail, r.target])).toEqual([
      ["destination.created", admin.email, "Tenant app"],
      ["destination.removed", admin.email, "Tenant app"],
    ]);
    expect(JSON.stringify(records)).not.toContain(created.secret!);
    expect(JSON.stringify(records)).not.toContain("token=abc");
    expect(records[0]!.details).toMatchObject({ url: "http://127.0.0.1:9", signing: "standard_webhooks" });
  });

  it("shows support a destination's URL as its origin: a receiver's token travels in the query or the path", async () => {
    const { id } = await insertTestConnection("Tokens");
    await createDestination(
      admin,
      input(id, { signing: "standard_webhooks", url: "http://127.0.0.1:9/hook?token=abc" }),
      LOCAL_POLICY,
    );
    expect((await listDestinations(id, "admin")).map((d) => d.url)).toEqual(["http://127.0.0.1:9/hook?token=abc"]);
    expect((await listDestinations(id, "support")).map((d) => d.url)).toEqual(["http://127.0.0.1:9"]);
  });

  it("keeps the Standard Webhooks secret encrypted, bound to its destination, and `secrets rotate` moves it to a new key", async () => {
    const { id } = await insertTestConnection("Sealed");
    const created = await createDestination(admin, input(id, { signing: "standard_webhooks" }), LOCAL_POLICY);
    if (!created.ok) throw new Error(created.error);
    const [row] = await db.select().from(forwardDestinations).where(eq(forwardDestinations.id, created.id));
    expect(row!.secretCiphertext).not.toContain(created.secret!.slice(6));

    const newKey = Buffer.alloc(32, 7).toString("base64");
    const ring = makeKeyring(newKey, [process.env.CONSOLE_ENCRYPTION_KEY!]);
    expect((await rotateStoredSecrets(ring)).unreadable).toBe(0);
    const [resealed] = await db.select().from(forwardDestinations).where(eq(forwardDestinations.id, created.id));
    expect(
      decryptSecret(
        resealed!.secretCiphertext!,
        { connectionId: id, destinationId: created.id, kind: "destination_secret" },
        makeKeyring(newKey),
      ),
    ).toBe(created.secret);
    // Back under the key the rest of this file's process uses.
    await rotateStoredSecrets(makeKeyring(process.env.CONSOLE_ENCRYPTION_KEY!, [newKey]));
  });
});

describe("the connect-time guard", () => {
  it("refuses to send to a saved destination whose name resolves to an address not allowed: nothing reaches it", async () => {
    const receiver = await startReceiver();
    try {
      const { id, token } = await insertTestConnection("Rebound", [KEY1]);
      // Saved as it could have been under another policy (or before its name moved): the send checks again.
      const [saved] = await db
        .insert(forwardDestinations)
        .values({
          connectionId: id,
          name: "Moved",
          url: receiver.url.replace("http://127.0.0.1", "https://localhost"),
          signing: "service",
        })
        .returning();
      await receiveEvent(token, [KEY1]);
      await forwardDueDeliveries(LOCAL_POLICY);
      expect(receiver.received).toEqual([]);
      expect(await deliveriesOf(saved!.id)).toMatchObject([
        { state: "pending", attempts: 1, lastOutcome: expect.stringMatching(/not allowed \(loopback\)/) },
      ]);
      expect(await listDestinations(id, "admin")).toMatchObject([
        { name: "Moved", health: { state: "failing", attempts24h: 1, delivered24h: 0 } },
      ]);
    } finally {
      await receiver.close();
      await db.execute(sql`update forward_deliveries set state = 'cancelled' where state = 'pending'`);
    }
  });
});
