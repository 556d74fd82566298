import crypto from "node:crypto";

import { setThresholds } from "@/lib/alerts/alerts";

/** How a demo stack's console evaluates alerts, where it sends their notices, and the first connection's thresholds. */
export type DemoAlerts = {
  evaluateSeconds: number;
  /** How long a cleared alert stays open before it resolves (CONSOLE_ALERT_HOLD_SECONDS). */
  holdSeconds: number;
  emailTo: string;
  /** Set on the first connection (lib/alerts/constants.ts THRESHOLDS: the defaults are 5 and 60). */
  thresholds: { badSignatures: number; destinationFailingMinutes: number };
};

/**
 * The demo's alerts: notices signed to the demo's notice sink and by email to its SMTP sink; the first connection's
 * thresholds are lowered so the story raises alerts within minutes, the other keeps the defaults to show the
 * difference (docs/demo.md, "Alerts in the demo").
 */
export const DEMO_ALERTS: DemoAlerts = {
  evaluateSeconds: 15,
  holdSeconds: 900,
  emailTo: "oncall@demo.test",
  thresholds: { badSignatures: 3, destinationFailingMinutes: 5 },
};

/**
 * The recorded tour's alerts (scripts/tour.ts): the first connection's destination alert opens at its
 * first failed attempt and resolves 20 s after the destination delivers again, so the tour shows an
 * alert opening and resolving within a minute instead of the demo's quarter of an hour.
 */
export const TOUR_ALERTS: DemoAlerts = {
  ...DEMO_ALERTS,
  evaluateSeconds: 10,
  holdSeconds: 20,
  thresholds: { badSignatures: 3, destinationFailingMinutes: 0 },
};

const seedActor = { id: null, email: "seed" } as const;

/** A Standard Webhooks secret for one run: `whsec_` and 24 random bytes in base64. */
export const demoAlertSecret = () => `whsec_${crypto.randomBytes(24).toString("base64")}`;

/**
 * The console's alert settings for the demo. The sink listens on 127.0.0.1 over http, which the guarded
 * client refuses unless CONSOLE_FORWARD_ALLOWED_HOSTS names it (the demo stack sets it for the tenant app too).
 */
export function demoAlertEnv(
  sink: { webhookUrl: string; smtpUrl: string },
  secret: string,
  alerts = DEMO_ALERTS,
): Record<string, string> {
  return {
    CONSOLE_ALERT_EVALUATE_SECONDS: String(alerts.evaluateSeconds),
    CONSOLE_ALERT_HOLD_SECONDS: String(alerts.holdSeconds),
    CONSOLE_ALERT_WEBHOOK_URLS: sink.webhookUrl,
    CONSOLE_ALERT_WEBHOOK_SECRET: secret,
    CONSOLE_SMTP_URL: sink.smtpUrl,
    CONSOLE_ALERT_EMAIL_TO: alerts.emailTo,
  };
}

/** Lowers the first connection's thresholds (audited as "seed", as an admin's change on the Alerts page would be). */
export async function seedDemoAlertThresholds(
  connection: { id: string; name: string },
  alerts = DEMO_ALERTS,
): Promise<void> {
  const result = await setThresholds(seedActor, { connectionId: connection.id, ...alerts.thresholds });
  if (!result.ok) throw new Error(`Could not set the demo's alert thresholds of ${connection.name}: ${result.error}`);
}
