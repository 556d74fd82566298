import type { CredentialsConfig } from "next-auth/providers/credentials";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { loginAttempts } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";

import { answerPasswordCallback } from "./credentials-callback";
import { authOptions } from "./options";
import { createUser } from "./users";

let db: Database;
let tearDown: () => Promise<void>;
const PASSWORD = "correct-horse-battery";
const BASE = "http://127.0.0.1:3000";

beforeAll(async () => {
  // One trusted proxy, as behind nginx: X-Forwarded-For's last entry is the caller. Read on env()'s first use.
  process.env.CONSOLE_TRUSTED_PROXY_HOPS = "1";
  ({ db, tearDown } = await setUpTestDatabase());
  await createUser({ email: "ada@example.com", name: "Ada", role: "admin", password: PASSWORD });
});
afterAll(() => tearDown());

type Authorize = CredentialsConfig["authorize"];

/** The console's own password authorize, as next-auth holds it (CredentialsProvider keeps the user's options). */
function passwordAuthorize(): Authorize {
  const provider = authOptions().providers.find((p) => p.id === "credentials") as unknown as {
    options: { authorize: Authorize };
  };
  return provider.options.authorize;
}

/**
 * next-auth's route handler cannot run outside Next (it reads next/headers), so this answers as it
 * does to its browser client (`json: true`) around the real authorize: 200 with `{ url }`, or 401 with
 * the thrown message as `error` in the url.
 */
async function nextAuthAnswer(credentials: Record<string, string>, headers: Record<string, string>): Promise<Response> {
  try {
    await passwordAuthorize()(credentials, { body: credentials, query: {}, headers, method: "POST" });
    return Response.json({ url: `${BASE}/` });
  } catch (error) {
    return Response.json(
      { url: `${BASE}/api/auth/error?error=${encodeURIComponent((error as Error).message)}` },
      { status: 401 },
    );
  }
}

function postSignIn(password: string, address: string, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { "x-forwarded-for": address, ...(cookie ? { cookie } : {}) };
  const request = new NextRequest(`${BASE}/api/auth/callback/credentials`, { method: "POST", headers });
  return answerPasswordCallback(request, () => nextAuthAnswer({ email: "ada@example.com", password }, headers));
}

const errorOf = async (response: Response) =>
  new URL(((await response.json()) as { url: string }).url).searchParams.get("error");

describe("answerPasswordCallback", () => {
  it("passes a wrong password through as next-auth answered it, without a device cookie", async () => {
    const wrong = await postSignIn("not-the-password", "198.51.100.43");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("retry-after")).toBeNull();
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it("answers a refused sign-in with 429 and Retry-After, keeping next-auth's error message for the form", async () => {
    for (let i = 0; i < 5; i++) {
      const wrong = await postSignIn(`wrong-${i}`, "198.51.100.40");
      expect(wrong.status).toBe(401);
      expect(await errorOf(wrong)).toBe("Email or password is incorrect.");
    }
    const started = performance.now();
    const refused = await postSignIn(PASSWORD, "198.51.100.40");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    expect(refused.headers.get("content-type")).toBe("application/json");
    expect(await errorOf(refused)).toBe("Too many failed sign-in attempts from this address. Try again in 15 minutes.");
    // The answer is held back half a second to a second (a client retrying at once is paced, a flood's
    // connections spread out), the refusal decided at once.
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
  });

  it("gives a good password sign-in a device cookie that then spares that browser the email's back-off", async () => {
    const good = await postSignIn(PASSWORD, "198.51.100.41");
    expect(good.status).toBe(200);
    const setCookie = good.headers.getSetCookie().find((c) => c.startsWith("console.device="));
    expect(setCookie).toMatch(
      /^console\.device=[\w-]+\.[\w-]+\.[\w-]+; Path=\/api\/auth\/callback\/credentials; Max-Age=2592000; HttpOnly; SameSite=Strict$/,
    );
    const cookie = setCookie!.split(";")[0]!;

    // Fifteen failures from elsewhere, the last just now: the email's back-off runs for 4 s.
    const now = Date.now();
    await db.insert(loginAttempts).values(
      Array.from({ length: 15 }, (_, i) => ({
        email: "ada@example.com",
        ip: `203.0.113.${i}`,
        succeeded: false,
        attemptedAt: new Date(now - (15 - i) * 10),
      })),
    );
    const stranger = await postSignIn(PASSWORD, "198.51.100.42");
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get("retry-after"))).toBeLessThanOrEqual(4);
    expect(await errorOf(stranger)).toMatch(
      /^Too many sign-in attempts for this account\. Try again in [1-4] seconds?\.$/,
    );
    const sameBrowser = await postSignIn(PASSWORD, "198.51.100.42", cookie);
    expect(sameBrowser.status).toBe(200);
  });
});
