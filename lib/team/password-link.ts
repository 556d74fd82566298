import "server-only";

import crypto from "node:crypto";

import { and, eq, gt, sql } from "drizzle-orm";

import { recordAudit } from "@/lib/audit/audit";
import { hashPassword } from "@/lib/auth/password";
import type { ActionResult } from "@/lib/call-action";
import { getDb } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";
import { env } from "@/lib/env";

import { invalid, setPasswordSchema, type SetPasswordInput } from "./schemas";
import type { PasswordLink } from "./types";

/**
 * One-time set-password links: `<NEXTAUTH_URL>/set-password#<token>`. The token (32 random bytes) rides in
 * the fragment, which browsers never send to a server, so it reaches no access log and no Referer; only its
 * SHA-256 is stored, with the instant the link stops working.
 */
export const PASSWORD_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

export function hashPasswordLinkToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** A new link: what to store on the user's row, and what to show the admin once. */
export function newPasswordLink(now = new Date()): {
  stored: { passwordSetupTokenHash: string; passwordSetupExpiresAt: Date };
  link: PasswordLink;
} {
  const token = crypto.randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + PASSWORD_LINK_LIFETIME_MS);
  return {
    stored: { passwordSetupTokenHash: hashPasswordLinkToken(token), passwordSetupExpiresAt: expiresAt },
    link: {
      url: `${env().NEXTAUTH_URL.replace(/\/+$/, "")}/set-password#${token}`,
      expiresAt: expiresAt.toISOString(),
    },
  };
}

export const linkNotUsable = "This link has expired or was already used. Ask an administrator for a new one.";

/**
 * The set-password page's one write: the token must match a live link, which it then clears, so the link
 * works once. Sets the password and ends the user's other sessions (session version), with its audit record.
 */
export async function setPasswordWithLink(raw: SetPasswordInput, now = new Date()): Promise<ActionResult> {
  const parsed = setPasswordSchema.safeParse(raw);
  if (!parsed.success) return invalid(parsed.error);
  const tokenHash = hashPasswordLinkToken(parsed.data.token);
  const live = and(eq(consoleUsers.passwordSetupTokenHash, tokenHash), gt(consoleUsers.passwordSetupExpiresAt, now));
  const db = await getDb();
  // Checked before hashing, so a guessed token costs no argon2 run; the UPDATE below checks again and is what counts.
  const [pending] = await db.select({ id: consoleUsers.id }).from(consoleUsers).where(live).limit(1);
  if (!pending) return { ok: false, error: linkNotUsable };
  const passwordHash = await hashPassword(parsed.data.password);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(consoleUsers)
      .set({
        passwordHash,
        passwordSetupTokenHash: null,
        passwordSetupExpiresAt: null,
        sessionVersion: sql`${consoleUsers.sessionVersion} + 1`,
        updatedAt: now,
      })
      .where(live)
      .returning({ id: consoleUsers.id, email: consoleUsers.email });
    if (!user) return { ok: false, error: linkNotUsable };
    await recordAudit(
      {
        actor: { id: user.id, email: user.email },
        action: "user.password_set",
        outcome: "success",
        target: user.email,
        details: { via: "link" },
      },
      tx,
    );
    return { ok: true };
  });
}
