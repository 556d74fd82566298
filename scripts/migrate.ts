import { bindLegacySecrets } from "@/lib/connections/rotate";
import { getDb, targetFromEnv } from "@/lib/db";
import { runCli } from "./cli";

runCli("Usage: npm run db:migrate", async () => {
  // What a console does when it starts: migrations, then keys stored before binding bound to their row.
  await bindLegacySecrets(await getDb());
  const target = targetFromEnv();
  console.log(`Migrations applied (${target.kind === "postgres" ? "PostgreSQL" : `PGlite in ${target.dataDir}`}).`);
});
