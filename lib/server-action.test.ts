import { notFound } from "next/navigation";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

import type { SessionUser } from "@/lib/auth/guards";
import { actionCrashMessage } from "@/lib/call-action";
import { logger } from "@/lib/logger";

import { runAction } from "./server-action";

// The rules of the one action wrapper; real actions run through it in app/action-errors.test.ts.
const revalidatePath = vi.hoisted(() => vi.fn());
vi.mock("next/cache", () => ({ revalidatePath }));
// Whose session the request carries is next-auth's business: here it is decided directly.
const session = vi.hoisted(() => ({ user: null as null | SessionUser }));
vi.mock("next-auth", () => ({
  getServerSession: async () => (session.user ? { expires: "", user: session.user } : null),
}));
vi.mock("react", async (original) => ({ ...(await original<typeof import("react")>()), cache: <T>(fn: T) => fn }));

const admin: SessionUser = { id: "u1", email: "admin@example.com", name: "Admin", role: "admin" };
const support: SessionUser = { id: "u2", email: "support@example.com", name: "Support", role: "support" };

beforeEach(() => {
  revalidatePath.mockClear();
  session.user = admin;
});

describe("runAction", () => {
  it("hands the work the signed-in user and revalidates every path given once the work answers ok", async () => {
    const work = vi.fn(async (user: SessionUser) => ({ ok: true as const, by: user.email }));
    const result = await runAction({ name: "testAction", role: "admin", revalidate: ["/team", ["/", "layout"]] }, work);
    expect(result).toEqual({ ok: true, by: "admin@example.com" });
    expect(revalidatePath.mock.calls).toEqual([["/team"], ["/", "layout"]]);
  });

  it("revalidates nothing after a failure, unless told the failure may have changed the page", async () => {
    const failing = async () => ({ ok: false as const, error: "Not deleted." });
    expect(await runAction({ name: "testAction", role: "admin", revalidate: ["/email-otp"] }, failing)).toEqual({
      ok: false,
      error: "Not deleted.",
    });
    expect(revalidatePath).not.toHaveBeenCalled();
    await runAction(
      { name: "testAction", role: "admin", revalidate: ["/email-otp"], revalidateOnFailure: true },
      failing,
    );
    expect(revalidatePath.mock.calls).toEqual([["/email-otp"]]);
  });

  it("refuses a user without the role, and one signed out, before the work or a revalidation", async () => {
    const work = vi.fn(async () => ({ ok: true as const }));
    session.user = support;
    expect(await runAction({ name: "testAction", role: "admin", revalidate: ["/team"] }, work)).toEqual({
      ok: false,
      error: "Only admin users can do this.",
    });
    session.user = null;
    expect(await runAction({ name: "testAction", role: "support", revalidate: ["/team"] }, work)).toEqual({
      ok: false,
      error: "Your session has ended. Sign in again.",
    });
    expect(work).not.toHaveBeenCalled();
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("runs a public action (no role) for anyone, signed out included", async () => {
    session.user = null;
    expect(await runAction({ name: "testAction", role: null }, async (user) => ({ ok: true as const, user }))).toEqual({
      ok: true,
      user: null,
    });
  });

  it("parses the input with the schema given: the parsed value goes to the work; one that does not parse is answered, the work not run", async () => {
    const parse = (input: unknown) => ({ schema: z.object({ id: z.uuid() }), input, invalid: "Choose a connection." });
    const work = vi.fn(async (_user: SessionUser, { id }: { id: string }) => ({ ok: true as const, id }));
    const id = "6f1d6a52-6d2a-4f7e-9b1e-2d9c1a0b7c11";
    expect(
      await runAction(
        { name: "testAction", role: "support", parse: parse({ id, extra: 1 }), revalidate: ["/data-points"] },
        work,
      ),
    ).toEqual({ ok: true, id });
    expect(work).toHaveBeenLastCalledWith(admin, { id });
    revalidatePath.mockClear();
    expect(
      await runAction(
        {
          name: "testAction",
          role: "support",
          parse: parse({ id: "nope" }),
          revalidate: ["/data-points"],
          revalidateOnFailure: true,
        },
        work,
      ),
    ).toEqual({
      ok: false,
      error: "Choose a connection.",
    });
    expect(work).toHaveBeenCalledTimes(1);
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("answers the crash message for an error the work throws, logs it by the action's name, and revalidates nothing", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    try {
      const result = await runAction(
        { name: "testAction", role: "admin", revalidate: ["/team"], revalidateOnFailure: true },
        async () => {
          throw new Error("database down");
        },
      );
      expect(result).toEqual({ ok: false, error: actionCrashMessage });
      expect(logged).toHaveBeenCalledWith("server action failed", {
        action: "testAction",
        error: expect.stringContaining("database down"),
      });
      expect(revalidatePath).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it("lets Next's own signals through (notFound(), redirect(), forbidden())", async () => {
    await expect(runAction({ name: "testAction", role: "admin" }, async () => notFound())).rejects.toThrow();
  });
});
