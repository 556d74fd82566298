import { authenticateMetrics } from "@/lib/auth/guards";
import { scrapeMetrics } from "@/lib/metrics/metrics";

export const dynamic = "force-dynamic";

/**
 * Prometheus metrics in the text format, for CONSOLE_METRICS_TOKEN or an API token with the metrics scope; never
 * anonymous.
 */
export async function GET(request: Request) {
  const refused = await authenticateMetrics(request);
  if (refused) return refused;
  const { body, contentType } = await scrapeMetrics();
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
