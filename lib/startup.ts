import "server-only";
import { signInSettings } from "@/lib/auth/oidc-config";
import { countUsers, createUser, UserExistsError } from "@/lib/auth/users";
import { bindLegacySecrets } from "@/lib/connections/rotate";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { isLoopbackHost } from "@/lib/loopback";
import { ensureUpcomingPartitions } from "@/lib/webhooks/partitions";
import { startWebhookRetentionJob } from "@/lib/webhooks/retention";

/**
 * Validates the environment (and warns when the sign-in throttle cannot tell callers apart), migrates
 * the database, binds keys stored before keys were bound to their row (once: see bindLegacySecrets)
 * and creates the first admin if asked to. Makes this month's and next month's partitions of the
 * event log before the first delivery can arrive.
 */
export async function startUp(): Promise<void> {
  const e = env();
  // Logs a wrong CONSOLE_OIDC_* setting now rather than at the first sign-in.
  signInSettings();
  // A console only this machine can reach (the demo, the tests) has no proxy to count.
  if (e.NODE_ENV === "production" && e.CONSOLE_TRUSTED_PROXY_HOPS === 0 && !isLoopbackHost(new URL(e.NEXTAUTH_URL).hostname)) {
    logger.warn(
      "CONSOLE_TRUSTED_PROXY_HOPS is 0: the sign-in throttle counts every caller as one address; set it to the number of proxies in front of the console (README)",
    );
  }
  await bindLegacySecrets(await getDb());
  await ensureUpcomingPartitions();
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
