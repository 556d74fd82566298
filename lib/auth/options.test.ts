import { eq } from "drizzle-orm";
import type { JWT } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { installDatabase, type Database, type DatabaseHandle } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";
import { forgetProcessSingleton, processSingleton } from "@/lib/process-singleton";
import { setUpTestDatabase, unreachableDatabase } from "@/lib/testing/database";

import { parseSignInSettings } from "./oidc-config";
import { authOptions, refreshSessionToken, SessionEndedError } from "./options";
import { createUser, revokeSessions, setUserDisabled, setUserPassword, setUserRole, type PublicUser } from "./users";

let db: Database;
let handle: DatabaseHandle;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  ({ db, handle, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

let n = 0;
/** A fresh user and the token next-auth's jwt callback issues when they sign in with a password. */
async function signedIn(): Promise<{ user: PublicUser; token: JWT }> {
  const email = `user${++n}@example.com`;
  const user = await createUser({ email, name: `User ${n}`, role: "admin", password: "long-enough-password" });
  const jwt = authOptions().callbacks!.jwt!;
  const token = await jwt({ token: { sub: user.id }, user: { ...user, sessionVersion: 1 }, account: null });
  return { user, token };
}

/** What next-auth runs on every later use of the session. */
const later = async (token: JWT) => authOptions().callbacks!.jwt!({ token, account: null, user: undefined as never });

async function endedBecause(token: JWT): Promise<string> {
  const outcome: unknown = await later(token).then(
    () => "continued",
    (error: unknown) => error,
  );
  return outcome instanceof SessionEndedError ? outcome.reason : String(outcome);
}

describe("the session check on every request", () => {
  it("issues a token carrying the user's session version at sign-in", async () => {
    const { user, token } = await signedIn();
    expect(token).toMatchObject({ uid: user.id, role: "admin", email: user.email, sessionVersion: 1 });
  });

  it("continues an unchanged session with the user's current name and role, read from the database", async () => {
    const { user, token } = await signedIn();
    await db.update(consoleUsers).set({ name: "Renamed", role: "support" }).where(eq(consoleUsers.id, user.id));
    await expect(later(token)).resolves.toMatchObject({
      uid: user.id,
      name: "Renamed",
      role: "support",
      sessionVersion: 1,
    });
  });

  it("ends the session of a disabled user", async () => {
    const { user, token } = await signedIn();
    await setUserDisabled(user.email, true);
    expect(await endedBecause(token)).toBe("disabled");
    // Enabling again does not bring the old session back.
    await setUserDisabled(user.email, false);
    expect(await endedBecause(token)).toBe("revoked");
  });

  it("ends the session when the role changes, the password changes or sessions are revoked", async () => {
    for (const change of [
      (email: string) => setUserRole(email, "support"),
      (email: string) => setUserPassword(email, "another-long-password"),
      (email: string) => revokeSessions(email),
    ]) {
      const { user, token } = await signedIn();
      await expect(later(token)).resolves.toMatchObject({ uid: user.id });
      expect(await change(user.email)).toBe(true);
      expect(await endedBecause(token)).toBe("revoked");
    }
  });

  it("ends the session of a deleted user and a token issued without a session version", async () => {
    const { user, token } = await signedIn();
    expect(await endedBecause({ ...token, sessionVersion: undefined })).toBe("unknown_user");
    await db.delete(consoleUsers).where(eq(consoleUsers.id, user.id));
    expect(await endedBecause(token)).toBe("unknown_user");
  });

  it("bumps the version of that user only", async () => {
    const first = await signedIn();
    const second = await signedIn();
    await revokeSessions(first.user.email.toUpperCase());
    expect(await endedBecause(first.token)).toBe("revoked");
    await expect(refreshSessionToken(second.token)).resolves.toMatchObject({ uid: second.user.id });
  });
});

describe("next-auth's logger", () => {
  async function written(fn: () => void): Promise<string> {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
    try {
      fn();
    } finally {
      spy.mockRestore();
    }
    return lines.join("");
  }

  it("writes an ended session as one info line with its reason, no stack", async () => {
    const out = await written(() =>
      authOptions().logger!.error!("JWT_SESSION_ERROR", new SessionEndedError("revoked")),
    );
    expect(JSON.parse(out)).toMatchObject({ level: "info", message: "session ended", reason: "revoked" });
    expect(out).not.toContain("at ");
  });

  it("writes any other error with its code and message only", async () => {
    const out = await written(() =>
      authOptions().logger!.error!("OAUTH_CALLBACK_ERROR", {
        error: new Error("state mismatch"),
        providerId: "oidc",
      } as never),
    );
    expect(JSON.parse(out)).toMatchObject({
      level: "error",
      message: "sign-in error",
      code: "OAUTH_CALLBACK_ERROR",
      error: "state mismatch",
    });
    expect(out).not.toMatch(/stack|\bat \w/);
  });
});

describe("a database that does not answer the session check", () => {
  it("neither ends the session nor confirms it: the token is marked unchecked for that request only", async () => {
    const { user, token } = await signedIn();
    const unreachable = await unreachableDatabase();
    installDatabase(unreachable);
    let during: JWT;
    try {
      during = await later(token);
    } finally {
      installDatabase(handle);
      await unreachable.close();
    }
    expect(during).toMatchObject({ uid: user.id, sessionVersion: 1, unchecked: true });
    const session = await authOptions().callbacks!.session!({
      session: { expires: "" } as never,
      token: during,
    } as never);
    expect(session).toMatchObject({ unchecked: true });
    expect((session as { user?: unknown }).user).toBeUndefined();
    // Once the database answers again, the same cookie is checked as usual.
    const after = await later(during);
    expect(after).toMatchObject({ uid: user.id });
    expect(after.unchecked).toBeUndefined();
  });
});

describe("CONSOLE_PASSWORD_SIGN_IN=false", () => {
  const settingsKey = "auth.sign-in-settings";
  const sso = {
    CONSOLE_OIDC_ISSUER: "http://127.0.0.1:9/issuer",
    CONSOLE_OIDC_CLIENT_ID: "console",
    CONSOLE_OIDC_CLIENT_SECRET: "client-secret-of-the-test",
    CONSOLE_OIDC_ADMIN_GROUPS: "admins",
  };
  const providerIds = (source: Record<string, string>) => {
    forgetProcessSingleton(settingsKey);
    processSingleton(settingsKey, () => parseSignInSettings(source));
    try {
      return authOptions().providers.map((p) => p.id);
    } finally {
      forgetProcessSingleton(settingsKey);
    }
  };

  it("removes the credentials provider itself, so its endpoint answers nothing, only while single sign-on works", () => {
    expect(providerIds({ ...sso })).toEqual(["credentials", "oidc"]);
    expect(providerIds({ ...sso, CONSOLE_PASSWORD_SIGN_IN: "false" })).toEqual(["oidc"]);
    expect(providerIds({ CONSOLE_PASSWORD_SIGN_IN: "false" })).toEqual(["credentials"]);
  });
});
