import { isDatabaseReachable } from "@/lib/db";
import { lifecycleState } from "@/lib/lifecycle";

export const dynamic = "force-dynamic";

/**
 * Readiness, for a load balancer or an orchestrator: 200 once start-up is done (migrated, jobs started) and the
 * database answers; 503 while starting, from SIGTERM on (draining, docs/operations.md "Stopping and upgrading"), and
 * while the database does not answer. /api/health stays the liveness check.
 */
export async function GET() {
  const state = lifecycleState();
  const database = state === "serving" ? await isDatabaseReachable() : undefined;
  const status = state !== "serving" ? state : database ? "ready" : "unavailable";
  return Response.json(
    { status, ...(database === undefined ? {} : { database: database ? "reachable" : "unreachable" }) },
    { status: status === "ready" ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
