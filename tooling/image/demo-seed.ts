// The image's demo seed (compose.yaml, profile demo; bundled as cli/demo-seed.mjs): the demo's two users, one
// connection per tenant of the emulator's seed, and the emulator told to send each tenant's webhooks to the console.
// Runs in the emulator's network namespace, since the emulator's control API answers loopback callers only.
// Idempotent: a second run (a restarted compose) leaves what exists as it is.
import { z } from "zod";

import { createUser, UserExistsError } from "@/lib/auth/users";
import { closeDb } from "@/lib/db";
import { demoUsers } from "@/tooling/demo-users";
import { seedDemoConnections } from "@/tooling/seed-connections";
import { pointEmulatorAtConsole } from "@/tooling/seed-webhooks";

const settings = z
  .object({
    EMULATOR_URL: z.string().url().default("http://127.0.0.1:4010"),
    DEMO_CONSOLE_URL: z.string().url().default("http://console-1:3000"),
    EMULATOR_SEED: z.string().min(1).default("/app/emulator/seeds/demo.json"),
  })
  .parse(process.env);

for (const user of demoUsers) {
  await createUser(user).catch((error: unknown) => {
    if (!(error instanceof UserExistsError)) throw error;
  });
}
const connections = await seedDemoConnections(settings.EMULATOR_SEED);
await pointEmulatorAtConsole(settings.EMULATOR_URL, settings.DEMO_CONSOLE_URL, connections);
console.log(`Demo seeded: ${demoUsers.length} users, ${connections.length} connections; sign in at the console.`);
await closeDb();
