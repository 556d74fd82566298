import "server-only";

import { asc, eq, sql } from "drizzle-orm";

import type { Role } from "@/lib/auth/roles";
import { getDb, rowsOf } from "@/lib/db";
import { forwardDestinations, type ForwardDestination } from "@/lib/db/forwarding-schema";
import { urlForRole } from "@/lib/outbound/shown-to-role";

import type { DestinationState, DestinationSummary, TrippedBreaker } from "./types";

/**
 * The breaker of a destination as pages show it: tripped since when, probing next when; null while closed, or while
 * off or paused (nothing probes then).
 */
export const trippedOf = (
  d: Pick<ForwardDestination, "trippedAt" | "probeAt" | "enabled" | "pausedAt">,
): TrippedBreaker | null =>
  d.trippedAt && d.enabled && !d.pausedAt
    ? { since: d.trippedAt.toISOString(), probeAt: d.probeAt?.toISOString() ?? null }
    : null;

/** Off and paused say what an admin must do; tripped, that the console only probes; failing, that attempts fail. */
const stateOf = (d: ForwardDestination): DestinationState =>
  !d.enabled
    ? "off"
    : d.pausedAt
      ? "paused"
      : d.trippedAt
        ? "tripped"
        : d.failingSince || d.signingProblem
          ? "failing"
          : "delivered";

/** A connection's destinations, each with its last 24 h of attempts summed up in SQL (no rows read into JavaScript). */
export async function listDestinationSummaries(
  connectionId: string,
  role: Role,
  now = new Date(),
): Promise<DestinationSummary[]> {
  const db = await getDb();
  const since = new Date(now.getTime() - 86_400_000);
  const destinations = await db
    .select()
    .from(forwardDestinations)
    .where(eq(forwardDestinations.connectionId, connectionId))
    .orderBy(asc(forwardDestinations.createdAt));
  if (destinations.length === 0) return [];
  const figures = rowsOf<{
    id: string;
    attempts: number;
    delivered: number;
    p95: number | string | null;
    pending: number;
  }>(
    await db.execute(sql`
    select f.id,
      (select count(*) from forward_attempts a where a.destination_id = f.id and a.started_at >= ${since.toISOString()})::int as attempts,
      (select count(*) from forward_attempts a where a.destination_id = f.id and a.started_at >= ${since.toISOString()} and a.ok)::int as delivered,
      (select percentile_cont(0.95) within group (order by a.latency_ms) from forward_attempts a
        where a.destination_id = f.id and a.started_at >= ${since.toISOString()} and a.status is not null) as p95,
      (select count(*) from forward_deliveries d where d.destination_id = f.id and d.state = 'pending')::int as pending
    from forward_destinations f where f.connection_id = ${connectionId}`),
  );
  const byId = new Map(figures.map((row) => [row.id, row]));
  return destinations.map((d) => {
    const f = byId.get(d.id) ?? { attempts: 0, delivered: 0, p95: null, pending: 0 };
    return {
      id: d.id,
      connectionId: d.connectionId,
      name: d.name,
      url: urlForRole(d.url, role),
      enabled: d.enabled,
      signing: d.signing,
      eventTypes: d.eventTypes,
      verificationMethods: d.verificationMethods,
      includeUnverified: d.includeUnverified,
      maxPerSecond: d.maxPerSecond,
      previousSecretExpiresAt:
        d.previousSecretExpiresAt && d.previousSecretExpiresAt > now ? d.previousSecretExpiresAt.toISOString() : null,
      createdAt: d.createdAt.toISOString(),
      health: {
        state: stateOf(d),
        attempts24h: f.attempts,
        delivered24h: f.delivered,
        successRate: f.attempts > 0 ? f.delivered / f.attempts : null,
        p95LatencyMs: f.p95 === null ? null : Math.round(Number(f.p95)),
        pending: f.pending,
        failingSince: d.failingSince?.toISOString() ?? null,
        pausedAt: d.pausedAt?.toISOString() ?? null,
        tripped: trippedOf(d),
        signingProblem: d.signingProblem,
      },
    };
  });
}
