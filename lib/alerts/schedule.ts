import "server-only";

import { startBackgroundJob } from "@/lib/background-job";
import { env } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { isStopping } from "@/lib/lifecycle";
import { logger } from "@/lib/logger";

import { evaluateAlerts } from "./evaluate";
import { sendDueNotices } from "./notice-sender";

/**
 * This process's alert jobs, started once per process (dev reloads too): an evaluation every
 * CONSOLE_ALERT_EVALUATE_SECONDS (skipped when another instance evaluated within most of that period), and the
 * notices sent after each evaluation and every NOTICE_POLL_MS (retries due, and what another instance queued). At a
 * stop neither starts again, and the notices under way end at the next batch (lib/background-job.ts).
 */

const FIRST_EVALUATION_MS = 5_000;
const NOTICE_POLL_MS = 5_000;

export function startAlerts(): void {
  const periodMs = env().CONSOLE_ALERT_EVALUATE_SECONDS * 1000;
  const sendNotices = async () => {
    try {
      while (!isStopping() && (await sendDueNotices()) > 0);
    } catch (error) {
      logger.error("alert notices not sent", { error: errorMessage(error) });
    }
  };
  const notices = startBackgroundJob("alerts.notices", { everyMs: NOTICE_POLL_MS, run: sendNotices });
  const evaluate = async () => {
    try {
      const outcome = await evaluateAlerts({ minGapMs: periodMs * 0.8 });
      if (outcome.ran && (outcome.opened || outcome.resolved))
        logger.info("alerts evaluated", {
          opened: outcome.opened,
          resolved: outcome.resolved,
          durationMs: outcome.durationMs,
        });
      if (outcome.ran && outcome.notices > 0) await notices.runNow();
    } catch (error) {
      logger.error("alert evaluation failed", { error: errorMessage(error) });
    }
  };
  startBackgroundJob("alerts.evaluation", {
    everyMs: periodMs,
    firstMs: Math.min(FIRST_EVALUATION_MS, periodMs),
    run: evaluate,
  });
}
