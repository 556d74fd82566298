import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

import { type Database } from "@/lib/db";
import { auditLog, webhookEvents } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { expiredEvent, insertTestConnection } from "@/lib/testing/webhooks";
import { createApiToken } from "@/lib/tokens/tokens";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { handleEraseEndUser } from "./api";
import { post } from "./test-helpers";

// DELETE /api/end-users/{userId} as a tenant's deletion pipeline calls it: with an API token, no session.

let db: Database;
let tearDown: () => Promise<void>;
const secrets = { admin: "", support: "" };
beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  const operator = { actor: { id: null, email: null }, user: null };
  for (const role of ["admin", "support"] as const) {
    const token = await createApiToken(operator, { name: `Pipeline ${role}`, role, scopes: ["api"] });
    if (!token.ok) throw new Error(token.error);
    secrets[role] = token.secret;
  }
});
afterAll(() => tearDown());

const erase = (secret: string, path: string) =>
  handleEraseEndUser(
    new Request(`http://127.0.0.1:3000/api/end-users/${path}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${secret}` },
    }),
    decodeURIComponent(path.split("?")[0]!),
  );

it("erases with an admin's token, refuses a support token, and names a bad parameter", async () => {
  const acme = await insertTestConnection("Acme", [KEY1]);
  const userId = "usr pipe/line+1";
  expect(await post(acme.token, expiredEvent({ data: { userId } }))).toBe(200);

  const refused = await erase(secrets.support, encodeURIComponent(userId));
  expect(refused.status).toBe(403);
  expect(await refused.json()).toEqual({
    error: "forbidden",
    errorDescription: "This API needs the admin role; the token has support.",
  });
  const unknown = await erase(secrets.admin, `${encodeURIComponent(userId)}?connection=${acme.id}`);
  expect(unknown.status).toBe(400);
  expect(await unknown.json()).toEqual({
    error: "invalid_request",
    errorDescription: "connection: not a parameter of this route",
  });
  const badId = await erase(secrets.admin, `${encodeURIComponent(userId)}?connectionId=acme`);
  expect(await badId.json()).toEqual({
    error: "invalid_request",
    errorDescription: "connectionId: must be a connection's id (a UUID)",
  });
  // No stored event can hold a NUL (the receiver refuses one), and the database could not be asked about it.
  const nul = await erase(secrets.admin, "usr%00x");
  expect(await nul.json()).toEqual({
    error: "invalid_request",
    errorDescription: "userId: User ids hold no NUL character and no unpaired surrogate.",
  });
  expect(await db.select().from(webhookEvents).where(eq(webhookEvents.userId, userId))).toHaveLength(1);

  const erased = await erase(secrets.admin, `${encodeURIComponent(userId)}?connectionId=${acme.id}`);
  expect(erased.status).toBe(200);
  expect(erased.headers.get("cache-control")).toBe("no-store");
  expect(await erased.json()).toMatchObject({
    connectionId: acme.id,
    userIdHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    erased: { events: 1 },
  });
  expect(await db.select().from(webhookEvents).where(eq(webhookEvents.userId, userId))).toEqual([]);
  const [record] = await db.select().from(auditLog).where(eq(auditLog.action, "end_user.erased"));
  expect(record).toMatchObject({ actorEmail: "api token Pipeline admin", connectionName: "Acme" });
});
