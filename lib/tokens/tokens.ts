import "server-only";

import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { ApiTokenScope } from "@/lib/auth/api-token-format";
import { newApiTokenSecret, tokenStatus } from "@/lib/auth/api-tokens";
import { SHARED_ADDRESS } from "@/lib/auth/client-ip";
import { hasRole, type Role } from "@/lib/auth/roles";
import type { ActionResult } from "@/lib/call-action";
import { getDb } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";
import { apiTokens } from "@/lib/db/tokens-schema";
import { isUniqueViolation } from "@/lib/error-message";

import { createApiTokenSchema, revokeApiTokenSchema } from "./schemas";
import type { ApiTokenView, CreateApiTokenField, CreateApiTokenResult } from "./types";

/*
 * Managing API tokens: create, list, revoke, each change audited in its own transaction. Verifying a
 * token on a request is lib/auth/api-tokens.ts's.
 */

/** Who creates a token: the audit's actor, and the user it acts for (null: an operator's token from the CLI). */
export type TokenCreator = { actor: AuditActor; user: { id: string; role: Role } | null };

const DAY_MS = 24 * 60 * 60 * 1000;

export async function createApiToken(
  creator: TokenCreator,
  rawInput: unknown,
  now = new Date(),
): Promise<CreateApiTokenResult> {
  const parsed = createApiTokenSchema.safeParse(rawInput);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: issue.message, field: issue.path[0] as CreateApiTokenField };
  }
  const input = parsed.data;
  if (creator.user && !hasRole(creator.user.role, input.role)) {
    return {
      ok: false,
      error: `A token's role can be no higher than its user's (${creator.user.role}).`,
      field: "role",
    };
  }
  const { secret, hash } = newApiTokenSecret();
  const id = crypto.randomUUID();
  const expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null;
  const db = await getDb();
  try {
    await db.transaction(async (tx) => {
      const userId = creator.user?.id ?? null;
      await tx.insert(apiTokens).values({
        id,
        name: input.name,
        role: input.role,
        scopes: input.scopes,
        secretHash: hash,
        createdBy: userId,
        userId,
        createdAt: now,
        expiresAt,
      });
      await recordAudit(
        {
          actor: creator.actor,
          action: "api_token.created",
          outcome: "success",
          target: input.name,
          details: { role: input.role, scopes: input.scopes, expiresAt: expiresAt?.toISOString() ?? null },
        },
        tx,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error))
      return { ok: false, error: `A token named ${input.name} already exists.`, field: "name" };
    throw error;
  }
  return { ok: true, id, name: input.name, secret };
}

/** Revokes a token by its id (the page's input, parsed here): it stops working at the next request. */
export async function revokeApiToken(
  actor: AuditActor,
  raw: unknown,
  now = new Date(),
): Promise<ActionResult<{ name: string }>> {
  const parsed = revokeApiTokenSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "This token no longer exists." };
  return revoke(actor, eq(apiTokens.id, parsed.data.id), now);
}

/** Revokes a token by its name, in any case (the CLI). */
export function revokeApiTokenByName(
  actor: AuditActor,
  name: string,
  now = new Date(),
): Promise<ActionResult<{ name: string }>> {
  return revoke(actor, sql`lower(${apiTokens.name}) = lower(${name.trim()})`, now);
}

/** Revoking one already revoked changes nothing and says so. */
async function revoke(actor: AuditActor, match: SQL, now: Date): Promise<ActionResult<{ name: string }>> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiTokens)
      .set({ revokedAt: now, revokedBy: actor.id, revokedReason: "revoked" })
      .where(and(match, isNull(apiTokens.revokedAt)))
      .returning({ name: apiTokens.name });
    if (!revoked) {
      const [existing] = await tx.select({ name: apiTokens.name }).from(apiTokens).where(match).limit(1);
      return {
        ok: false,
        error: existing ? `The token ${existing.name} was already revoked.` : "No such token.",
      } as const;
    }
    await recordAudit({ actor, action: "api_token.revoked", outcome: "success", target: revoked.name }, tx);
    return { ok: true, name: revoked.name } as const;
  });
}

/** Every token, working ones first, newest first; never a secret or its hash. */
export async function listApiTokens(now = new Date()): Promise<ApiTokenView[]> {
  const db = await getDb();
  const creator = alias(consoleUsers, "creator");
  const rows = await db
    .select({
      token: {
        id: apiTokens.id,
        name: apiTokens.name,
        role: apiTokens.role,
        scopes: apiTokens.scopes,
        userId: apiTokens.userId,
        createdAt: apiTokens.createdAt,
        expiresAt: apiTokens.expiresAt,
        revokedAt: apiTokens.revokedAt,
        revokedReason: apiTokens.revokedReason,
        lastUsedAt: apiTokens.lastUsedAt,
        lastUsedAddress: apiTokens.lastUsedAddress,
      },
      creator: creator.email,
      user: { email: consoleUsers.email, role: consoleUsers.role, disabled: consoleUsers.disabled },
    })
    .from(apiTokens)
    .leftJoin(creator, eq(creator.id, apiTokens.createdBy))
    .leftJoin(consoleUsers, eq(consoleUsers.id, apiTokens.userId))
    .orderBy(sql`${apiTokens.revokedAt} is not null`, desc(apiTokens.createdAt));
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return rows.map(({ token, creator, user }) => ({
    id: token.id,
    name: token.name,
    role: token.role,
    scopes: token.scopes as ApiTokenScope[],
    createdBy: creator,
    user: user?.email ?? null,
    createdAt: token.createdAt.toISOString(),
    expiresAt: iso(token.expiresAt),
    revokedAt: iso(token.revokedAt),
    revokedReason: token.revokedReason,
    lastUsedAt: iso(token.lastUsedAt),
    // Without a trusted proxy every caller shares one throttle key: no address to show.
    lastUsedAddress: token.lastUsedAddress === SHARED_ADDRESS ? null : token.lastUsedAddress,
    status: tokenStatus(token, user, now),
  }));
}
