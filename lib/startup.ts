import "server-only";
import { countUsers, createUser, UserExistsError } from "@/lib/auth/users";
import { bindLegacySecrets } from "@/lib/connections/rotate";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { startWebhookRetentionJob } from "@/lib/webhooks/retention";

/**
 * Validates the environment, migrates the database, binds keys stored before keys were bound to their
 * row (once: see bindLegacySecrets) and creates the first admin if asked to.
 */
export async function startUp(): Promise<void> {
  const e = env();
  await bindLegacySecrets(await getDb());
  if (e.CONSOLE_BOOTSTRAP_ADMIN_EMAIL && e.CONSOLE_BOOTSTRAP_ADMIN_PASSWORD && (await countUsers()) === 0) {
    try {
      await createUser({
        email: e.CONSOLE_BOOTSTRAP_ADMIN_EMAIL,
        name: "Administrator",
        role: "admin",
        password: e.CONSOLE_BOOTSTRAP_ADMIN_PASSWORD,
      });
      logger.info("created the bootstrap admin (CONSOLE_BOOTSTRAP_ADMIN_EMAIL)");
    } catch (error) {
      // Another instance starting at the same moment created it first: that is the outcome wanted.
      if (!(error instanceof UserExistsError)) throw error;
    }
  }
  startWebhookRetentionJob();
}
