/**
 * npm run bench [-- part…]: every part, or those named (`npm run bench -- overview`).
 * Parts: webhooks (ingest and the log's queries, ./webhooks.ts), overview (the overview's queries at
 * 1,000,000 events, ./overview.ts; on PostgreSQL when DATABASE_URL is set).
 */
import { setThrowawaySecrets } from "./support/timing";

setThrowawaySecrets();

const parts: Record<string, () => Promise<void>> = {
  webhooks: async () => (await import("./webhooks")).runWebhooksBench(),
  overview: async () => (await import("./overview")).runOverviewBench(),
};

async function main() {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(name in parts));
  if (unknown.length > 0) throw new Error(`No bench part ${unknown.join(", ")}: the parts are ${Object.keys(parts).join(", ")}.`);
  for (const name of asked.length > 0 ? asked : Object.keys(parts)) {
    console.log(`\n== bench: ${name} ==`);
    await parts[name]!();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
