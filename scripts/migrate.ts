import { bindLegacySecrets } from "@/lib/connections/rotate";
import { getDb, targetFromEnv } from "@/lib/db";

import { defineCli } from "./cli";

defineCli(import.meta.url, "Usage: npm run db:migrate", async (_argv, io) => {
  // What a console does when it starts: migrations, then keys stored before binding bound to their row.
  await bindLegacySecrets(await getDb());
  const target = targetFromEnv();
  io.print(`Migrations applied (${target.kind === "postgres" ? "PostgreSQL" : `PGlite in ${target.dataDir}`}).`);
});
