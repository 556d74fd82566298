import { inspect } from "node:util";

import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { createUser, type PublicUser } from "@/lib/auth/users";
import { actionCrashMessage } from "@/lib/call-action";
import type { Database } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";
import { flushRepeatedLogLines } from "@/lib/logger";
import { logRequestError } from "@/lib/request-errors";
import { hashPasswordLinkToken, newPasswordLink, setPasswordWithLink } from "@/lib/team/password-link";
import { setUpTestDatabase } from "@/lib/testing/database";

// Real actions run by lib/server-action.ts's wrapper (its own rules are lib/server-action.test.ts), and
// instrumentation.ts's onRequestError: what a failed query's parameters would reveal, and what is printed instead.

// The session is next-auth's business: here the admin is signed in.
const signedIn = vi.hoisted(() => ({ user: null as null | PublicUser }));
vi.mock("@/lib/auth/guards", async (original) => ({
  ...(await original<typeof import("@/lib/auth/guards")>()),
  authorizeAction: async () => signedIn.user ?? { ok: false, error: "Your session has ended. Sign in again." },
}));

const { setPasswordAction, addTeamMemberAction } = await import("@/lib/team/actions");
const { eraseEndUserDataAction } = await import("@/lib/erasure/actions");

let db: Database;
let tearDown: () => Promise<void>;

// Rows the database refuses (as a full disk, a constraint or a lost connection would): the failing statement's
// parameters are a password hash, a set-password token's hash, an email and a name.
const refusedEmail = "leak.check.member@example.com";
const refusedName = "Leak Check Marker Name";
const passwordEmail = "leak.check.password@example.com";
const newPassword = "leak-check-new-password-0001";
const erasedUserId = "usr_leak_check_erasure";

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  signedIn.user = await createUser({
    email: "admin@example.com",
    name: "Admin",
    role: "admin",
    password: "long-enough-password",
  });
  await db.execute(
    sql.raw(`alter table console_users add constraint test_refuses_member check (email <> '${refusedEmail}')`),
  );
  await db.execute(
    sql.raw(
      `alter table console_users add constraint test_refuses_password check (password_hash is null or email <> '${passwordEmail}')`,
    ),
  );
  await db.execute(
    sql.raw(`alter table end_user_erasures add constraint test_refuses_erasure check (user_id <> '${erasedUserId}')`),
  );
});
afterAll(() => tearDown());

/** A user with a live set-password link whose password the database will refuse to store; the link's token. */
async function pendingPasswordLink(): Promise<string> {
  await db.delete(consoleUsers).where(eq(consoleUsers.email, passwordEmail));
  const { stored, link } = newPasswordLink();
  await db
    .insert(consoleUsers)
    .values({ email: passwordEmail, name: "Pat Pending", role: "support", passwordHash: null, ...stored });
  return new URL(link.url).hash.slice(1);
}

/** Everything this process prints while `work` runs: standard output and error, and the console. */
async function printedBy<T>(work: () => Promise<T>): Promise<{ result: T; printed: string }> {
  const printed: string[] = [];
  const keep = (...args: unknown[]) =>
    void printed.push(args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 10 }))).join(" "));
  const spies = [
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (keep(String(chunk)), true)),
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (keep(String(chunk)), true)),
    ...(["log", "info", "warn", "error", "debug"] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(keep),
    ),
  ];
  try {
    const result = await work();
    flushRepeatedLogLines();
    return { result, printed: printed.join("\n") };
  } finally {
    spies.forEach((spy) => spy.mockRestore());
  }
}

describe("a database error thrown inside a server action", () => {
  it("is what Next would print with every parameter of the query, were it to escape the action", async () => {
    const token = await pendingPasswordLink();
    const error = await setPasswordWithLink({ token, password: newPassword, confirmation: newPassword }).catch(
      (e: unknown) => e,
    );
    const printedByNext = inspect(error, { depth: 10 });
    expect(printedByNext).toContain(hashPasswordLinkToken(token));
    expect(printedByNext).toContain("$argon2id$");
  });

  it("set password: answers the crash message and logs the SQLSTATE, never the token, hash or email", async () => {
    const token = await pendingPasswordLink();
    const { result, printed } = await printedBy(() =>
      setPasswordAction({ token, password: newPassword, confirmation: newPassword }),
    );
    expect(result).toEqual({ ok: false, error: actionCrashMessage });
    expect(printed).toContain(
      '"message":"server action failed","action":"setPasswordAction","error":"database error 23514',
    );
    for (const secret of [token, hashPasswordLinkToken(token), "$argon2id$", passwordEmail, newPassword])
      expect(printed).not.toContain(secret);
  });

  it("add team member: answers the crash message and logs the SQLSTATE, never the email or the name", async () => {
    const { result, printed } = await printedBy(() =>
      addTeamMemberAction({ email: refusedEmail, name: refusedName, role: "support" }),
    );
    expect(result).toEqual({ ok: false, error: actionCrashMessage });
    expect(printed).toContain(
      '"message":"server action failed","action":"addTeamMemberAction","error":"database error 23514',
    );
    for (const secret of [refusedEmail, refusedName]) expect(printed).not.toContain(secret);
  });

  it("erase an end user's data: answers the crash message and logs the SQLSTATE, never the user id", async () => {
    const { result, printed } = await printedBy(() =>
      eraseEndUserDataAction({ userId: erasedUserId, connectionId: null, confirmUserId: erasedUserId }),
    );
    expect(result).toEqual({ ok: false, error: actionCrashMessage });
    expect(printed).toContain(
      '"message":"server action failed","action":"eraseEndUserDataAction","error":"database error 23514',
    );
    expect(printed).not.toContain(erasedUserId);
  });
});

describe("onRequestError (instrumentation.ts), for an error Next caught outside an action", () => {
  it("logs the route's pattern, the digest and the SQLSTATE: not the path, query, headers or any parameter", async () => {
    const token = await pendingPasswordLink();
    const error = Object.assign(
      await setPasswordWithLink({ token, password: newPassword, confirmation: newPassword }).catch(
        (e: unknown) => e as Error,
      ),
      { digest: "1234567890" },
    );
    const request = {
      path: `/api/webhooks/whk_secret_token?userId=${passwordEmail}`,
      method: "POST",
      headers: { cookie: "next-auth.session-token=secret" },
    };
    const context = {
      routerKind: "App Router",
      routePath: "/api/webhooks/[[...path]]",
      routeType: "route",
      revalidateReason: undefined,
    } as const;
    const { printed } = await printedBy(async () => logRequestError(error, request, context));
    expect(JSON.parse(printed)).toMatchObject({
      level: "error",
      message: "request failed",
      method: "POST",
      route: "/api/webhooks/[[...path]]",
      routeType: "route",
      digest: "1234567890",
      error: expect.stringMatching(
        /^database error 23514: integrity constraint violation \(constraint "test_refuses_password"/,
      ),
    });
    for (const secret of [
      token,
      hashPasswordLinkToken(token),
      "$argon2id$",
      passwordEmail,
      "whk_secret_token",
      "session-token",
    ])
      expect(printed).not.toContain(secret);
  });
});
