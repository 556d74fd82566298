import "server-only";

import { and, eq, or, sql } from "drizzle-orm";

import { getDb } from "@/lib/db";
import { forwardDeliveries } from "@/lib/db/forwarding-schema";
import { DELIVERIES_QUEUED_CHANNEL, notify } from "@/lib/db/notifications";
import { logger } from "@/lib/logger";
import { countLeaseGivenBack } from "@/lib/metrics/metrics";

import { recordAttempts, type AttemptRecord } from "./outbox";

/**
 * An attempt the process's stop aborted before it ended: no attempt at all (nothing recorded, no retry delay), and
 * its delivery's lease is given back so that another instance sends it at once rather than after LEASE_SECONDS.
 * `attempts` is the delivery's count as this take left it: a later take (the lease ran out) counted one more.
 */
export type GivenBack = { givenBack: true; deliveryId: number; destinationId: string; attempts: number };

/** What an attempt under way comes to: an attempt to record, or a lease to give back. */
export type AttemptOutcome = AttemptRecord | GivenBack;

export const isGivenBack = (outcome: AttemptOutcome): outcome is GivenBack => "givenBack" in outcome;

/**
 * Gives the deliveries' leases back in one statement: due now, unleased, their attempt count as before the aborted
 * attempt (the take counted it); then a notification so that the other instances' workers take them at once. A lease
 * that ran out and was taken again (its count moved on) is the new taker's: it is left alone.
 */
export async function giveBackLeases(deliveries: readonly GivenBack[]): Promise<void> {
  if (deliveries.length === 0) return;
  const db = await getDb();
  const { attempts, dueAt } = forwardDeliveries;
  await db
    .update(forwardDeliveries)
    .set({
      leasedUntil: null,
      // One cancelled while it was being sent (its replay cancelled) keeps its due time; it is taken no more.
      dueAt: sql`case when ${forwardDeliveries.state} = 'pending' then now() else ${dueAt} end`,
      attempts: sql`greatest(${attempts} - 1, 0)`,
    })
    .where(or(...deliveries.map((d) => and(eq(forwardDeliveries.id, d.deliveryId), eq(attempts, d.attempts)))));
  await notify(db, DELIVERIES_QUEUED_CHANNEL);
  for (const delivery of deliveries) countLeaseGivenBack(delivery.destinationId);
  logger.info("forwarding attempts aborted at the stop: their leases are given back, to be sent at once", {
    deliveries: deliveries.length,
  });
}

/** Records the ended attempts and gives back the leases of the aborted ones. */
export async function recordOutcomes(outcomes: readonly AttemptOutcome[]): Promise<void> {
  await giveBackLeases(outcomes.filter(isGivenBack));
  await recordAttempts(outcomes.filter((outcome): outcome is AttemptRecord => !isGivenBack(outcome)));
}
