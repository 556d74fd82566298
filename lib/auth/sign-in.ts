import "server-only";

import { deviceOf } from "./device-cookie";
import { signInHashGate, type HashGate } from "./hash-gate";
import { verifyAgainstDecoy, verifyPassword } from "./password";
import type { Role } from "./roles";
import { signInSchema, type SignInInput } from "./schemas";
import { claimAttempt, isKnownAddress, type RefusalReason } from "./throttle";
import { findUserForSignIn, recordSignIn } from "./users";

export type SignInResult =
  | { ok: true; user: { id: string; email: string; name: string; role: Role; sessionVersion: number } }
  /** `retryAfterMs`: refused before any password check (HTTP 429); try again no sooner. */
  | { ok: false; message: string; retryAfterMs?: number };

export const INVALID_CREDENTIALS = "Email or password is incorrect.";
/** How soon to try again when every place in the hash line is taken: the whole line clears well within it. */
export const BUSY_RETRY_MS = 1_000;

export type SignInOptions = {
  now?: Date;
  /** The device cookie the request carried (lib/auth/device-cookie.ts), if any. */
  deviceToken?: string;
  /** The line password checks wait in; tests pass one of their own. */
  hashGate?: HashGate;
};

/**
 * Checks a sign-in attempt: the throttle (from then on the attempt counts as failed), a place in the hash line, the
 * password, the disabled flag; only a good password on an enabled account marks it good. Nothing here waits on a
 * timer, and no message says whether the email belongs to an account.
 */
export async function attemptSignIn(
  raw: unknown,
  address: string,
  { now = new Date(), deviceToken, hashGate = signInHashGate }: SignInOptions = {},
): Promise<SignInResult> {
  const parsed = signInSchema.safeParse(raw);
  const email = typeof (raw as { email?: unknown })?.email === "string" ? (raw as { email: string }).email : "";

  const device = parsed.success ? await deviceOf(deviceToken, email, now) : null;
  // A flood keeps the strangers' line full: a caller with no device cookie and no good password from
  // this address is told "busy" after one indexed read, before the throttle's transaction, which would
  // otherwise cost the database (and the webhook receiver sharing it) a locked write per attempt.
  if (parsed.success && !device && hashGate.isFull("untrusted") && !(await isKnownAddress(email, address, now))) {
    return refusal("busy", BUSY_RETRY_MS);
  }
  const attempt = await claimAttempt({ email, address, device }, now);
  if (attempt.refused) return refusal(attempt.reason, attempt.retryAt.getTime() - now.getTime());

  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues[0]?.message ?? INVALID_CREDENTIALS };
  }

  const checked = hashGate.tryRun(attempt.knownGood ? "trusted" : "untrusted", () => checkPassword(parsed.data));
  if (!checked) {
    await attempt.withdraw();
    return refusal("busy", BUSY_RETRY_MS);
  }
  const user = await checked;
  if (!user) {
    return { ok: false, message: INVALID_CREDENTIALS };
  }
  if (user.disabled) {
    return { ok: false, message: "This account is disabled. Ask a console administrator to enable it." };
  }
  await attempt.succeeded();
  await recordSignIn(user.id, now);
  return {
    ok: true,
    user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion },
  };
}

/** The user whose password this is, or null. */
async function checkPassword({ email, password }: SignInInput) {
  const user = await findUserForSignIn(email);
  // A user without a password (single sign-on only, or invited and not yet set) never passes, and
  // takes as long to refuse as anyone else.
  const passwordOk = user?.passwordHash
    ? await verifyPassword(user.passwordHash, password)
    : await verifyAgainstDecoy(password);
  return user && passwordOk ? user : null;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

function refusal(reason: RefusalReason | "busy", retryAfterMs: number): SignInResult {
  const seconds = plural(Math.max(1, Math.ceil(retryAfterMs / 1000)), "second");
  const message =
    reason === "email"
      ? `Too many sign-in attempts for this account. Try again in ${seconds}.`
      : reason === "busy"
        ? `Too many sign-ins at once. Try again in ${seconds}.`
        : `Too many failed sign-in attempts from this address. Try again in ${plural(Math.max(1, Math.ceil(retryAfterMs / 60_000)), "minute")}.`;
  return { ok: false, message, retryAfterMs };
}
