import "server-only";

import { and, eq, inArray, sql } from "drizzle-orm";
import type { ZodError } from "zod";

import type { AuditActor } from "@/lib/audit/audit";
import { getConnection } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { auditLog } from "@/lib/db/schema";

import { countPerConnection } from "./events";
import { ERASURE_AUDIT_ACTION, noCounts, runErasure, startErasure } from "./job";
import { countMentions } from "./mentions";
import {
  confirmedErasureSchema,
  endUserErasureSchema,
  type ConfirmedErasureInput,
  type EndUserErasureInput,
} from "./schemas";
import { personalValues, userEventKeys } from "./targets";
import type { ErasurePreviewResult, ErasureResult } from "./types";
import { userIdHashes } from "./user-hash";

export { startErasureResumption } from "./job";

/**
 * Erasing an end user's data (GDPR's right to erasure), in one connection or in all: their events with
 * those events' rejections, deliveries and attempts, and what names them elsewhere (mentions.ts). The
 * audit log records each erasure by a keyed hash of the id (user-hash.ts).
 */

type Refusal = Extract<ErasureResult, { ok: false }>;

function invalid(error: ZodError): Refusal {
  const issue = error.issues[0];
  return { ok: false, failure: "invalid_request", error: issue?.message ?? "Check the user id." };
}

/** The input, parsed, with its connection looked up; or why it cannot be erased. */
async function readRequest(
  raw: EndUserErasureInput,
): Promise<{ userId: string; connection: { id: string; name: string } | null } | Refusal> {
  const parsed = endUserErasureSchema.safeParse(raw);
  if (!parsed.success) return invalid(parsed.error);
  const { userId, connectionId } = parsed.data;
  if (connectionId === null) return { userId, connection: null };
  const connection = await getConnection(connectionId);
  if (!connection) return { ok: false, failure: "not_found", error: "This connection no longer exists." };
  return { userId, connection: { id: connection.id, name: connection.name } };
}

/** What an erasure would remove, per connection and in all, and whether this user was erased before. */
export async function previewEndUserErasure(raw: EndUserErasureInput): Promise<ErasurePreviewResult> {
  const request = await readRequest(raw);
  if ("ok" in request) return request;
  const { userId, connection } = request;
  const scope = { connectionId: connection?.id ?? null };
  const db = await getDb();
  const connections = await countPerConnection(db, await userEventKeys(db, userId, scope, null));
  const mentions = await countMentions(db, await personalValues(db, userId, scope), scope);
  const total = connections.reduce(
    (sum, c) => ({
      ...sum,
      events: sum.events + c.events,
      rejections: sum.rejections + c.rejections,
      deliveries: sum.deliveries + c.deliveries,
      attempts: sum.attempts + c.attempts,
    }),
    { ...noCounts(), ...mentions },
  );
  const [before] = await db
    .select({ count: sql<number>`count(*)::int`, lastAt: sql<string | null>`max(${auditLog.at})` })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, ERASURE_AUDIT_ACTION),
        inArray(sql`${auditLog.details}->>'userIdHash'`, userIdHashes(userId)),
      ),
    );
  return {
    ok: true,
    userId,
    connectionName: connection?.name ?? null,
    connections,
    total,
    erasedBefore: { count: before?.count ?? 0, lastAt: before?.lastAt ? new Date(before.lastAt).toISOString() : null },
  };
}

/** Erases the user's data (a tenant's deletion pipeline, the CLI); answers once it is all gone and recorded. */
export async function eraseEndUserData(actor: AuditActor, raw: EndUserErasureInput): Promise<ErasureResult> {
  const request = await readRequest(raw);
  if ("ok" in request) return request;
  return runErasure(await startErasure(actor, request.userId, request.connection));
}

/** The Users page's erasure: only when the user id was typed again exactly. */
export async function eraseConfirmedEndUserData(actor: AuditActor, raw: ConfirmedErasureInput): Promise<ErasureResult> {
  const parsed = confirmedErasureSchema.safeParse(raw);
  if (!parsed.success) return invalid(parsed.error);
  const { userId, connectionId, confirmUserId } = parsed.data;
  if (confirmUserId !== userId)
    return { ok: false, failure: "invalid_request", error: `Type ${userId} exactly to confirm.` };
  return eraseEndUserData(actor, { userId, connectionId });
}
