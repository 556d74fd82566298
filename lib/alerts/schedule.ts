import "server-only";

import { env } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { processSingleton } from "@/lib/process-singleton";

import { evaluateAlerts } from "./evaluate";
import { sendDueNotices } from "./notice-sender";

/**
 * This process's alert jobs, started once per process (dev reloads too): an evaluation every
 * CONSOLE_ALERT_EVALUATE_SECONDS (skipped when another instance evaluated within most of that period), and the
 * notices sent after each evaluation and every NOTICE_POLL_MS (retries due, and what another instance queued).
 */

const FIRST_EVALUATION_MS = 5_000;
const NOTICE_POLL_MS = 5_000;
const jobs = () => processSingleton("alerts.jobs", () => ({ started: false }));

export function startAlerts(): void {
  if (jobs().started) return;
  jobs().started = true;
  const periodMs = env().CONSOLE_ALERT_EVALUATE_SECONDS * 1000;
  let sending = false;
  const sendNotices = async () => {
    if (sending) return;
    sending = true;
    try {
      while ((await sendDueNotices()) > 0);
    } catch (error) {
      logger.error("alert notices not sent", { error: errorMessage(error) });
    } finally {
      sending = false;
    }
  };
  const evaluate = async () => {
    try {
      const outcome = await evaluateAlerts({ minGapMs: periodMs * 0.8 });
      if (outcome.ran && (outcome.opened || outcome.resolved))
        logger.info("alerts evaluated", {
          opened: outcome.opened,
          resolved: outcome.resolved,
          durationMs: outcome.durationMs,
        });
      if (outcome.ran && outcome.notices > 0) await sendNotices();
    } catch (error) {
      logger.error("alert evaluation failed", { error: errorMessage(error) });
    }
  };
  setTimeout(() => void evaluate(), Math.min(FIRST_EVALUATION_MS, periodMs)).unref();
  setInterval(() => void evaluate(), periodMs).unref();
  setInterval(() => void sendNotices(), NOTICE_POLL_MS).unref();
}
