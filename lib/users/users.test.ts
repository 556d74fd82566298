import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { RunningEmulator } from "@/emulator/server";
import type { ConnectionChoice } from "@/lib/connections/types";
import type { Database } from "@/lib/db";
import { auditLog, connections } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { demoTenant, emulatorControl, startTestEmulator } from "@/lib/testing/emulator";
import { insertTestConnection } from "@/lib/testing/webhooks";

import { lookUpUserAuthenticators } from "./users";

const acme = demoTenant("Acme");
const actor = {
  id: "00000000-0000-4000-8000-000000000001",
  email: "support@example.com",
  name: "S",
  role: "support" as const,
};

let emulator: RunningEmulator;
let db: Database;
let tearDown: () => Promise<void>;

/** An Acme-region connection with the given server key (or none). */
async function addConnection(name: string, serverKey?: string): Promise<ConnectionChoice> {
  const { id } = await insertTestConnection(name, serverKey ? [serverKey] : []);
  return { id, name, region: "us" };
}

beforeAll(async () => {
  // The emulator last: the seed's authenticators expire seconds after it starts (ua_alice_push in 20 s),
  // and setting up the database first could use those seconds up on a busy machine.
  ({ db, tearDown } = await setUpTestDatabase());
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await tearDown();
  await emulator.close();
});

describe("lookUpUserAuthenticators", () => {
  it("tracks an action with the server key, then reads the user's current authenticators", async () => {
    const acmeConnection = await addConnection("Acme", acme.serverSecretKeys[0]);
    const result = await lookUpUserAuthenticators(actor, acmeConnection, "usr_alice");
    expect(result.kind).toBe("ok");
    const methods = result.kind === "ok" ? result.authenticators.map((a) => a.verificationMethod).sort() : [];
    expect(methods).toEqual(["EMAIL_OTP", "PASSKEY", "PUSH"]);
    const email =
      result.kind === "ok" ? result.authenticators.find((a) => a.verificationMethod === "EMAIL_OTP")?.email : "";
    expect(email).toMatch(/•/);

    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "user_authenticators.viewed"));
    expect(audit).toMatchObject({ outcome: "success", target: "usr_alice", httpStatus: 200, connectionName: "Acme" });
  });

  it("logs the service calls without the user id, the tenant's personal data", async () => {
    const [acmeConnection] = await db
      .select({ id: connections.id, name: connections.name, region: connections.region })
      .from(connections);
    const written = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect((await lookUpUserAuthenticators(actor, acmeConnection!, "usr_bob")).kind).toBe("ok");
      const lines = written.mock.calls.map(([chunk]) => String(chunk));
      expect(lines.join("")).toContain("/users/{userId}/actions/console_authenticator_lookup");
      expect(lines.join("")).not.toContain("usr_bob");
    } finally {
      written.mockRestore();
    }
  });

  it("no longer lists an authenticator once its lifetime has passed", async () => {
    const [acmeConnection] = await db
      .select({ id: connections.id, name: connections.name, region: connections.region })
      .from(connections);
    await emulatorControl(emulator, "clock/advance", "POST", { seconds: 95 });
    const result = await lookUpUserAuthenticators(actor, acmeConnection!, "usr_alice");
    expect(result.kind === "ok" ? result.authenticators.map((a) => a.verificationMethod) : null).toEqual(["PASSKEY"]);
  });

  it("says a server key is needed when the connection has none", async () => {
    const bare = await addConnection("Bare");
    expect(await lookUpUserAuthenticators(actor, bare, "usr_alice")).toEqual({ kind: "no_server_key" });
  });

  it("names the refused server key, never showing it", async () => {
    const wrong = await addConnection("Wrong key", acme.managementKey);
    const result = await lookUpUserAuthenticators(actor, wrong, "usr_alice");
    expect(result).toMatchObject({
      kind: "failed",
      message: expect.stringContaining("refused the server API secret key"),
    });
    expect(JSON.stringify(result)).not.toContain(acme.managementKey);
    const failures = await db.select().from(auditLog).where(eq(auditLog.outcome, "failure"));
    expect(failures.at(-1)).toMatchObject({ httpStatus: 401, connectionName: "Wrong key" });
  });
});
