import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setUpTestDatabase } from "@/lib/testing/database";
import { createUser, setUserDisabled, type PublicUser } from "./users";

// The session cookie is next-auth's business; here we decide whose session it is and let the
// guards do the rest against the real database.
const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", () => ({ getServerSession: async () => session.current }));
vi.mock("react", async (original) => ({ ...(await original<typeof import("react")>()), cache: <T>(fn: T) => fn }));

const { authenticateApi, authorizeAction, requireRole, requireUser } = await import("./guards");

let tearDown: () => Promise<void>;
let admin: PublicUser;
let support: PublicUser;

beforeAll(async () => {
  ({ tearDown } = await setUpTestDatabase());
  admin = await createUser({ email: "admin@example.com", name: "Admin", role: "admin", password: "long-enough-password" });
  support = await createUser({ email: "support@example.com", name: "Support", role: "support", password: "long-enough-password" });
});
afterAll(() => tearDown());
beforeEach(() => {
  session.current = null;
});

const as = (user: PublicUser) => (session.current = { user: { id: user.id } });

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
    const signedOut = await authenticateApi();
    expect(signedOut).toBeInstanceOf(Response);
    expect((signedOut as Response).status).toBe(401);
    expect(await (signedOut as Response).json()).toMatchObject({ error: "unauthorized" });
    as(support);
    expect(((await authenticateApi("admin")) as Response).status).toBe(403);
    expect(await authenticateApi("support")).toMatchObject({ id: support.id });
  });

  it("authorizeAction returns a failure instead of throwing", async () => {
    as(support);
    expect(await authorizeAction("admin")).toEqual({ ok: false, error: "Only admin users can do this." });
  });

  it("a disabled user loses access at the next request, though the session is still valid", async () => {
    const dee = await createUser({ email: "dee@example.com", name: "Dee", role: "admin", password: "long-enough-password" });
    as(dee);
    await expect(requireUser()).resolves.toMatchObject({ id: dee.id });
    await setUserDisabled("dee@example.com", true);
    expect(await interrupt(requireUser)).toMatch(/NEXT_REDIRECT/);
    expect(((await authenticateApi()) as Response).status).toBe(401);
  });
});
