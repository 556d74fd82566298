import type { NextAuthOptions } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { setUpTestDatabase } from "@/lib/testing/database";

import { createUser, revokeSessions, setUserDisabled, type PublicUser } from "./users";

// The session cookie is next-auth's business; here we decide whose token it holds and, like
// getServerSession, run the console's jwt and session callbacks on it (a throw means no session).
const session = vi.hoisted(() => ({ current: null as null | JWT }));
vi.mock("next-auth", () => ({
  getServerSession: async (options: NextAuthOptions) => {
    if (!session.current) return null;
    try {
      const token = await options.callbacks!.jwt!({ token: session.current, account: null, user: undefined as never });
      return await options.callbacks!.session!({ session: { expires: "" }, token } as never);
    } catch {
      return null;
    }
  },
}));
vi.mock("react", async (original) => ({ ...(await original<typeof import("react")>()), cache: <T>(fn: T) => fn }));

const { authenticateApi, authorizeAction, requireRole, requireUser } = await import("./guards");

const apiRequest = new Request("http://console.test/api/webhook-events");

let tearDown: () => Promise<void>;
let admin: PublicUser;
let support: PublicUser;

beforeAll(async () => {
  ({ tearDown } = await setUpTestDatabase());
  admin = await createUser({
    email: "admin@example.com",
    name: "Admin",
    role: "admin",
    password: "long-enough-password",
  });
  support = await createUser({
    email: "support@example.com",
    name: "Support",
    role: "support",
    password: "long-enough-password",
  });
});
afterAll(() => tearDown());
beforeEach(() => {
  session.current = null;
});

const as = (user: PublicUser) => (session.current = { uid: user.id, sessionVersion: 1 });

/** Next's redirect()/forbidden() throw errors whose digest says what they mean. */
async function interrupt(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
    return "none";
  } catch (error) {
    return String((error as { digest?: string }).digest);
  }
}

describe("guards", () => {
  it("requireUser redirects a signed-out visitor to sign-in", async () => {
    expect(await interrupt(requireUser)).toMatch(/^NEXT_REDIRECT;replace;\/sign-in;/);
  });

  it("requireUser returns the user re-read from the database", async () => {
    as(support);
    await expect(requireUser()).resolves.toMatchObject({ email: "support@example.com", role: "support" });
  });

  it("requireRole('admin') answers 403 for support and passes admin", async () => {
    as(support);
    expect(await interrupt(() => requireRole("admin"))).toMatch(/NEXT_HTTP_ERROR_FALLBACK;403/);
    as(admin);
    await expect(requireRole("admin")).resolves.toMatchObject({ role: "admin" });
    await expect(requireRole("support")).resolves.toMatchObject({ role: "admin" });
  });

  it("authenticateApi answers 401 signed out and 403 for a missing role", async () => {
    const signedOut = await authenticateApi(apiRequest);
    expect(signedOut).toBeInstanceOf(Response);
    expect((signedOut as Response).status).toBe(401);
    expect(await (signedOut as Response).json()).toMatchObject({ error: "unauthorized" });
    as(support);
    expect(((await authenticateApi(apiRequest, "admin")) as Response).status).toBe(403);
    expect(await authenticateApi(apiRequest, "support")).toMatchObject({ id: support.id });
  });

  it("authenticateApi judges a Bearer header alone, a bad token refused beside a valid session; another scheme is left to the session", async () => {
    as(support);
    const withHeader = (authorization: string) =>
      new Request("http://console.test/api/webhook-events", { headers: { authorization } });
    const badToken = await authenticateApi(withHeader(`Bearer tcapi_${"B".repeat(43)}`));
    expect((badToken as Response).status).toBe(401);
    expect(await authenticateApi(withHeader("Basic YTpi"))).toMatchObject({ id: support.id });
  });

  it("authorizeAction returns a failure instead of throwing", async () => {
    as(support);
    expect(await authorizeAction("admin")).toEqual({ ok: false, error: "Only admin users can do this." });
  });

  it("a disabled user loses access at the next request, though the session is still valid", async () => {
    const dee = await createUser({
      email: "dee@example.com",
      name: "Dee",
      role: "admin",
      password: "long-enough-password",
    });
    as(dee);
    await expect(requireUser()).resolves.toMatchObject({ id: dee.id });
    await setUserDisabled("dee@example.com", true);
    expect(await interrupt(requireUser)).toMatch(/NEXT_REDIRECT/);
    expect(((await authenticateApi(apiRequest)) as Response).status).toBe(401);
  });

  it("revoked sessions lose access at the next request", async () => {
    const eve = await createUser({
      email: "eve@example.com",
      name: "Eve",
      role: "admin",
      password: "long-enough-password",
    });
    as(eve);
    await expect(authorizeAction("admin")).resolves.toMatchObject({ id: eve.id });
    await revokeSessions("eve@example.com");
    expect(await authorizeAction("admin")).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
  });
});
