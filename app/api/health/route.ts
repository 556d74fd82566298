import { isDatabaseReachable } from "@/lib/db";

export const dynamic = "force-dynamic";

/** Liveness and readiness: 200 when the database answers, 503 when it does not. */
export async function GET() {
  const database = await isDatabaseReachable();
  return Response.json(
    { status: database ? "ok" : "unavailable", database: database ? "reachable" : "unreachable" },
    { status: database ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
