import "server-only";

import { and, asc, desc, eq, inArray } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { Role } from "@/lib/auth/roles";
import type { ActionResult } from "@/lib/call-action";
import { getDb } from "@/lib/db";
import { forwardAttempts, forwardDeliveries, forwardDestinations } from "@/lib/db/forwarding-schema";
import { DELIVERIES_QUEUED_CHANNEL, notify } from "@/lib/db/notifications";
import { webhookEvents } from "@/lib/db/schema";
import { outcomeForRole } from "@/lib/outbound/shown-to-role";

import { findDestination, GONE } from "./destinations";
import { trippedOf } from "./health";
import { resendInputSchema } from "./schemas";
import type { EventForwards } from "./types";
import { UNVERIFIED_REMEDY, whyNotForwarded } from "./verdict";
import { wakeForwarding } from "./worker";

/** An event's drawer shows at most this many attempts per destination of its connection, in all, newest first. */
const MAX_ATTEMPTS_SHOWN = 30;

/**
 * An event's forwards, for its drawer in the log: every destination of its connection, each with this
 * event's deliveries and their attempts, newest first. The start of an answer is for admins only.
 */
export async function listEventForwards(connectionId: string, eventId: string, role: Role): Promise<EventForwards[]> {
  const db = await getDb();
  const destinations = await db
    .select()
    .from(forwardDestinations)
    .where(eq(forwardDestinations.connectionId, connectionId))
    .orderBy(asc(forwardDestinations.createdAt));
  if (destinations.length === 0) return [];
  const [event] = await db
    .select({
      type: webhookEvents.type,
      verificationMethod: webhookEvents.verificationMethod,
      isTest: webhookEvents.isTest,
      signatureStatus: webhookEvents.signatureStatus,
    })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.connectionId, connectionId), eq(webhookEvents.eventId, eventId)))
    .limit(1);
  const deliveries = await db
    .select()
    .from(forwardDeliveries)
    .where(and(eq(forwardDeliveries.connectionId, connectionId), eq(forwardDeliveries.eventId, eventId)))
    .orderBy(desc(forwardDeliveries.id));
  const attempts =
    deliveries.length === 0
      ? []
      : await db
          .select()
          .from(forwardAttempts)
          .where(
            inArray(
              forwardAttempts.deliveryId,
              deliveries.map((d) => d.id),
            ),
          )
          .orderBy(desc(forwardAttempts.id))
          .limit(MAX_ATTEMPTS_SHOWN * destinations.length);
  return destinations.map((destination) => ({
    destinationId: destination.id,
    destinationName: destination.name,
    enabled: destination.enabled,
    notForwarded:
      event && !deliveries.some((d) => d.destinationId === destination.id) ? whyNotQueued(destination, event) : null,
    tripped: trippedOf(destination),
    deliveries: deliveries
      .filter((d) => d.destinationId === destination.id)
      .map((d) => ({
        id: d.id,
        state: d.state,
        origin: d.origin,
        createdAt: d.createdAt.toISOString(),
        dueAt: d.dueAt.toISOString(),
        attempts: attempts
          .filter((a) => a.deliveryId === d.id)
          .map((a) => ({
            startedAt: a.startedAt.toISOString(),
            status: a.status,
            ok: a.ok,
            latencyMs: a.latencyMs,
            outcome: outcomeForRole(a.outcome, role, "the destination's host"),
            responseBody: role === "admin" ? a.responseBody : null,
          })),
      })),
  }));
}

type StoredEvent = { type: string; verificationMethod: string | null; isTest: boolean; signatureStatus: string };

/** Why storing the event queued nothing to the destination, in words, most telling first. */
function whyNotQueued(destination: typeof forwardDestinations.$inferSelect, event: StoredEvent): string {
  const unverified = whyNotForwarded(destination.signing, destination.includeUnverified, event.signatureStatus);
  if (unverified) return `Not forwarded: ${unverified}.`;
  if (event.isTest) return "Not forwarded: the console's own test events are sent only by Resend.";
  if (destination.eventTypes && !destination.eventTypes.includes(event.type))
    return `Not forwarded: this destination takes only ${destination.eventTypes.join(", ")}.`;
  const methods = destination.verificationMethods;
  if (methods && !(event.verificationMethod && methods.includes(event.verificationMethod)))
    return `Not forwarded: this destination takes only the methods ${methods.join(", ")}.`;
  return destination.enabled
    ? "Not forwarded: the destination was off, or not yet added, when the event arrived."
    : "Not forwarded: the destination is off.";
}

/** Queues the event to the destination once more, due now, whatever its filters say (an admin asked); audited. */
export async function resendEvent(actor: AuditActor, raw: unknown): Promise<ActionResult> {
  const parsed = resendInputSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  const { connectionId, destinationId, eventId } = parsed.data;
  const found = await findDestination(connectionId, destinationId);
  if (!found) return GONE;
  const { row: destination, connection } = found;
  if (!destination.enabled) return { ok: false, error: `${destination.name} is off: turn it on to send to it.` };
  const db = await getDb();
  const [event] = await db
    .select({ id: webhookEvents.id, signatureStatus: webhookEvents.signatureStatus })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.connectionId, connectionId), eq(webhookEvents.eventId, eventId)))
    .limit(1);
  if (!event) return { ok: false, error: "This event is no longer stored." };
  // The console's own test events are signed with the server key and stored verified, so they pass;
  // one stored unsigned (a test id posted by someone else) is refused like any other.
  const refused = whyNotForwarded(destination.signing, destination.includeUnverified, event.signatureStatus);
  if (refused) return { ok: false, error: `Not sent to ${destination.name}: ${refused}. ${UNVERIFIED_REMEDY}` };
  await db.transaction(async (tx) => {
    await tx.insert(forwardDeliveries).values({ destinationId, connectionId, eventId, origin: "resend" });
    await recordAudit(
      {
        actor,
        action: "destination.resent",
        outcome: "success",
        connection,
        target: destination.name,
        details: { eventId },
      },
      tx,
    );
    await notify(tx, DELIVERIES_QUEUED_CHANNEL);
  });
  wakeForwarding();
  return { ok: true };
}
