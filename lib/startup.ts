import "server-only";

import { startAlerts } from "@/lib/alerts/alerts";
import { signInSettings } from "@/lib/auth/oidc-config";
import { countUsers, createUser, UserExistsError } from "@/lib/auth/users";
import { bindLegacySecrets } from "@/lib/connections/rotate";
import { closeDb, getDb } from "@/lib/db";
import { startForwarding } from "@/lib/destinations/destinations";
import { env } from "@/lib/env";
import { startErasureResumption } from "@/lib/erasure/erasure";
import { markStarted, onStop } from "@/lib/lifecycle";
import { logger } from "@/lib/logger";
import { ensureUpcomingPartitions } from "@/lib/webhooks/partitions";
import { startWebhookRetentionJob } from "@/lib/webhooks/retention";
import { flushStoredEvents } from "@/lib/webhooks/store";

/**
 * Validates the environment (in production CONSOLE_TRUSTED_PROXY_HOPS must be set), migrates the database, binds
 * legacy keys (bindLegacySecrets), creates the first admin if asked, makes this and next month's event partitions
 * before the first delivery, and starts the jobs, an erasure a restart interrupted among them; then readiness
 * (/api/ready) may say 200.
 */
export async function startUp(): Promise<void> {
  const e = env();
  // Logs a wrong CONSOLE_OIDC_* setting now rather than at the first sign-in.
  signInSettings();
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
  startForwarding();
  startAlerts();
  startErasureResumption();
  // Requests wait for their batch, but a stop must not lose one queued when the listener closed.
  onStop("webhooks.group-commit", "flush", flushStoredEvents);
  onStop("database", "close", closeDb);
  markStarted();
}
