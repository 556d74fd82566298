import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";
import { setTimeout as wait } from "node:timers/promises";

import type { NextRequest } from "next/server";
import { z } from "zod";

import { deviceCookieHeader, deviceCookieName, issueDeviceToken } from "./device-cookie";
import type { SignInResult } from "./sign-in";

/*
 * next-auth 4's Credentials `authorize` can only throw a message, so a refusal with Retry-After (429) and the device
 * cookie cannot come from it: authorize reports its result through AsyncLocalStorage to this wrapper of next-auth's
 * POST handler, which turns the answer into the 429 or adds the cookie.
 */

export type PasswordCallback = {
  /** The device cookie the request carried, for authorize to check against the email. */
  deviceToken: string | undefined;
  report: (result: SignInResult) => void;
};

const current = new AsyncLocalStorage<PasswordCallback>();

/** The password callback request authorize runs in; undefined outside one (a test calling authorize). */
export function currentPasswordCallback(): PasswordCallback | undefined {
  return current.getStore();
}

/**
 * The longest a refusal's answer is held back, up to its retry time: a client that retries at once is paced to one
 * attempt per connection per second, at the cost of a timer. The refusal is decided before the wait.
 */
export const REFUSAL_ANSWER_HOLD_MS = 1_000;

const nextAuthJsonAnswer = z.object({ url: z.string() });

/** Runs next-auth's handler for a POST and answers what it cannot: see above. */
export async function answerPasswordCallback(request: NextRequest, handle: () => Promise<Response>): Promise<Response> {
  let result: SignInResult | undefined;
  const call: PasswordCallback = {
    deviceToken: request.cookies.get(deviceCookieName())?.value,
    report: (reported) => {
      result = reported;
    },
  };
  const response = await current.run(call, handle);
  if (!result) return response;
  if (!result.ok && result.retryAfterMs !== undefined) {
    // Jittered (half to all of the hold), so a flood's connections come back spread out, not in one wave.
    await wait(Math.min(result.retryAfterMs, REFUSAL_ANSWER_HOLD_MS * (0.5 + Math.random() / 2)));
    return tooManyAttempts(response, result.retryAfterMs);
  }
  if (!result.ok || response.status >= 400) return response;
  const answer = new Response(response.body, response);
  answer.headers.append("set-cookie", deviceCookieHeader(await issueDeviceToken(result.user.email)));
  return answer;
}

/**
 * next-auth's refusal as 429 with Retry-After, keeping its body (`{ url }` with the `error` message,
 * which next-auth's `signIn()` reads whatever the status) and its cookies.
 */
async function tooManyAttempts(response: Response, retryAfterMs: number): Promise<Response> {
  const url = response.headers.get("location") ?? nextAuthJsonAnswer.parse(await response.json()).url;
  const headers = new Headers(response.headers);
  headers.delete("location");
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  headers.set("retry-after", String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  return new Response(JSON.stringify({ url }), { status: 429, headers });
}
