import { getDb, targetFromEnv } from "@/lib/db";
import { runCli } from "./cli";

runCli("Usage: npm run db:migrate", async () => {
  await getDb();
  const target = targetFromEnv();
  console.log(`Migrations applied (${target.kind === "postgres" ? "PostgreSQL" : `PGlite in ${target.dataDir}`}).`);
});
