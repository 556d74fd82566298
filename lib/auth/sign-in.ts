import "server-only";
import { setTimeout as wait } from "node:timers/promises";
import { recordAudit } from "@/lib/audit/audit";
import type { Role } from "./roles";
import { verifyAgainstDecoy, verifyPassword } from "./password";
import { signInSchema } from "./schemas";
import { attemptKey, claimAttempt } from "./throttle";
import { findUserForSignIn, recordSignIn } from "./users";

export type SignInResult =
  | { ok: true; user: { id: string; email: string; name: string; role: Role; sessionVersion: number } }
  | { ok: false; message: string };

export const INVALID_CREDENTIALS = "Email or password is incorrect.";

export type SignInOptions = {
  now?: Date;
  /** How the per-email backoff waits; tests pass one that records the delay instead. */
  sleep?: (ms: number) => Promise<unknown>;
};

/**
 * Checks a sign-in attempt: throttle first (the attempt counts as failed from then on), then the
 * backoff wait, then the password, then the disabled flag; only a good password on an enabled
 * account marks it good. No message says whether the email belongs to an account.
 */
export async function attemptSignIn(raw: unknown, ip: string, { now = new Date(), sleep = wait }: SignInOptions = {}): Promise<SignInResult> {
  const parsed = signInSchema.safeParse(raw);
  const email = typeof (raw as { email?: unknown })?.email === "string" ? (raw as { email: string }).email : "";

  const attempt = await claimAttempt(email, ip, now);
  if (attempt.refused) {
    const minutes = Math.max(1, Math.ceil((attempt.retryAt.getTime() - now.getTime()) / 60_000));
    await recordAudit({
      actor: { id: null, email: attemptKey(email) || null },
      action: "sign_in.throttled",
      outcome: "denied",
      details: { ip },
    });
    return {
      ok: false,
      message: `Too many failed sign-in attempts from this address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    };
  }

  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues[0]?.message ?? INVALID_CREDENTIALS };
  }

  if (attempt.delayMs > 0) await sleep(attempt.delayMs);
  const user = await findUserForSignIn(parsed.data.email);
  // A user without a password (single sign-on only, or invited and not yet set) never passes, and
  // takes as long to refuse as anyone else.
  const passwordOk = user?.passwordHash
    ? await verifyPassword(user.passwordHash, parsed.data.password)
    : await verifyAgainstDecoy(parsed.data.password);
  if (!user || !passwordOk) {
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
