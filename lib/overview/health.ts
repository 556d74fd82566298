import "server-only";

import { and, count, desc, eq, gte, inArray, sql, type SQL } from "drizzle-orm";

import { listConnections } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { connections as c, webhookEvents, webhookRejections } from "@/lib/db/schema";
import { getEmailOtpStatus } from "@/lib/email-otp/email-otp";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";

import { DAY_MS } from "./links";
import { iso, realEvent, realRejection } from "./real";
import type { ConnectionHealth, EmailOtpPresence } from "./types";

const e = webhookEvents;
const r = webhookRejections;
const countWhere = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

/**
 * Each connection's webhook health (every connection, or those named) over the 24 h before `now`, in one
 * statement: the day's events and refusals by connection (index-only reads) and each connection's newest real
 * event (its index's last entry).
 */
export async function getConnectionHealth(connectionIds?: string[], now = new Date()): Promise<ConnectionHealth[]> {
  const wanted = connectionIds ? new Set(connectionIds) : null;
  const connections = (await listConnections()).filter((c) => !wanted || wanted.has(c.id));
  if (connections.length === 0) return [];
  const ids = connections.map((c) => c.id);
  const since = new Date(now.getTime() - DAY_MS);
  const db = await getDb();

  const events = db
    .select({
      connectionId: e.connectionId,
      events: count().as("events"),
      unsigned: countWhere(sql`${e.signatureStatus} = 'unsigned'`).as("unsigned"),
      lastUnsignedAt: sql<string | null>`max(${e.firstReceivedAt}) filter (where ${e.signatureStatus} = 'unsigned')`.as(
        "last_unsigned_at",
      ),
    })
    .from(e)
    .where(and(realEvent, gte(e.firstReceivedAt, since), inArray(e.connectionId, ids)))
    .groupBy(e.connectionId)
    .as("events_24h");
  const refused = and(realRejection, gte(r.receivedAt, since), inArray(r.connectionId, ids));
  const rejections = db
    .select({
      connectionId: r.connectionId,
      rejections: count().as("rejections"),
      badSignature: countWhere(sql`${r.reason} = 'bad_signature'`).as("bad_signature"),
      lastBadSignatureAt: sql<string | null>`max(${r.receivedAt}) filter (where ${r.reason} = 'bad_signature')`.as(
        "last_bad_signature_at",
      ),
    })
    .from(r)
    .where(refused)
    .groupBy(r.connectionId)
    .as("rejections_24h");
  // The most frequent reason per connection (ties: the first by name, so the card does not flicker).
  const topReasons = db
    .selectDistinctOn([r.connectionId], {
      connectionId: r.connectionId,
      reason: r.reason,
      count: count().as("top_count"),
    })
    .from(r)
    .where(refused)
    .groupBy(r.connectionId, r.reason)
    .orderBy(r.connectionId, desc(count()), r.reason)
    .as("top_reason_24h");
  const rows = await db
    .select({
      id: c.id,
      lastEventAt: sql<
        string | null
      >`(select max(${e.firstReceivedAt}) from ${e} where ${e.connectionId} = ${c.id} and ${realEvent})`,
      events: events.events,
      unsigned: events.unsigned,
      lastUnsignedAt: events.lastUnsignedAt,
      rejections: rejections.rejections,
      badSignature: rejections.badSignature,
      lastBadSignatureAt: rejections.lastBadSignatureAt,
      topReason: topReasons.reason,
      topCount: topReasons.count,
    })
    .from(c)
    .leftJoin(events, eq(events.connectionId, c.id))
    .leftJoin(rejections, eq(rejections.connectionId, c.id))
    .leftJoin(topReasons, eq(topReasons.connectionId, c.id))
    .where(inArray(c.id, ids));

  const counted = new Map(rows.map((row) => [row.id, row]));
  return connections.map((connection) => {
    const row = counted.get(connection.id);
    return {
      id: connection.id,
      name: connection.name,
      region: connection.region,
      verifiedAt: connection.verifiedAt,
      keys: connection.keys,
      lastEventAt: iso(row?.lastEventAt),
      events24h: Number(row?.events ?? 0),
      unsigned24h: Number(row?.unsigned ?? 0),
      lastUnsignedAt: iso(row?.lastUnsignedAt),
      rejections24h: Number(row?.rejections ?? 0),
      badSignature24h: Number(row?.badSignature ?? 0),
      lastBadSignatureAt: iso(row?.lastBadSignatureAt),
      topRejectionReason24h: row?.topReason ? { reason: row.topReason, count: Number(row.topCount) } : null,
    };
  });
}

/** How long the overview waits for the service before it says "unknown": a slow region must not hold a card. */
export const EMAIL_OTP_TIMEOUT_MS = 4000;

/**
 * Whether the tenant has an email OTP configuration (admins: the page asks only for them). Never
 * throws and never waits longer than `timeoutMs`: what could not be told is "unknown", with why in words.
 */
export async function getEmailOtpPresence(
  connectionId: string,
  timeoutMs = EMAIL_OTP_TIMEOUT_MS,
): Promise<EmailOtpPresence> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<EmailOtpPresence>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: "unknown", reason: `The service did not answer within ${timeoutMs / 1000} s.` }),
      timeoutMs,
    );
  });
  const asked = getEmailOtpStatus(connectionId).then(
    (status): EmailOtpPresence =>
      status.kind === "failure" ? { kind: "unknown", reason: status.message } : { kind: status.kind },
    (error: unknown): EmailOtpPresence => {
      logger.warn("email OTP presence not read", { connectionId, error: errorMessage(error) });
      return { kind: "unknown", reason: "The console could not ask the service (the server log says why)." };
    },
  );
  try {
    return await Promise.race([asked, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
