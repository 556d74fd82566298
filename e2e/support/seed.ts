import { createUser, setUserDisabled } from "@/lib/auth/users";
import { closeDb, targetFromEnv } from "@/lib/db";
import { createPgliteFromTemplate } from "@/lib/testing/templates";

import { seedDemoConnections } from "../../tooling/seed-connections";
import { pointEmulatorAtConsole } from "../../tooling/seed-webhooks";
import { e2eEnv, e2eUsers } from "./env";
import { seedSsoAccounts } from "./seed-sso";

/** Seeds the e2e database before the console starts (PGlite is single-process). */
async function main() {
  // A fresh stack's embedded database, started as a copy of the migrated template rather than migrated.
  const target = targetFromEnv();
  if (target.kind === "pglite" && target.dataDir) await createPgliteFromTemplate(target.dataDir);
  for (const user of Object.values(e2eUsers)) {
    await createUser({ email: user.email, name: user.name, role: user.role, password: user.password });
    if ("disabled" in user && user.disabled) await setUserDisabled(user.email, true);
  }
  await seedSsoAccounts();
  const connections = await seedDemoConnections();
  // Each emulated tenant delivers its webhooks to its connection's receiver URL on the e2e console.
  await pointEmulatorAtConsole(e2eEnv.emulatorUrl, e2eEnv.consoleUrl, connections);
  await closeDb();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
