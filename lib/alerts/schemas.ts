import { z } from "zod";

import { displayNameSchema } from "@/lib/display-name";

import { ALERT_KINDS, ALERT_STATES, MUTE_HOURS, THRESHOLD_NAMES, THRESHOLDS, type ThresholdName } from "./constants";

/**
 * Every zod schema of the alerts: the list's filters (page and API), the lifecycle's actions, the thresholds form,
 * the notice targets. Client-safe.
 */

export const ALL = "all";
/** "all" or one of `values`, saying which when it is neither. */
const allOr = <T extends readonly string[]>(values: T) => {
  const choices = [ALL, ...values] as [typeof ALL, ...T];
  return z.enum(choices, { error: `must be one of ${choices.join(", ")}` });
};

/** The Alerts page's and GET /api/alerts' filters: a link's query, each optional. */
export const alertFiltersSchema = z
  .object({
    connectionId: z.union([z.literal(ALL), z.uuid({ error: "must be a connection id" })]).default(ALL),
    kind: allOr(ALERT_KINDS).default(ALL),
    state: allOr(ALERT_STATES).default(ALL),
    /** "no": not muted now (the banner's); "yes": muted now. */
    muted: allOr(["yes", "no"] as const).default(ALL),
    limit: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(200, "must be at most 200")
      .default(50),
  })
  .strict();
export type AlertFilters = z.infer<typeof alertFiltersSchema>;

export const alertIdSchema = z.object({ alertId: z.uuid({ error: "must be an alert id" }) });
export const muteAlertSchema = alertIdSchema.extend({
  hours: z.coerce.number().refine((h) => (MUTE_HOURS as readonly number[]).includes(h), {
    error: `must be one of ${MUTE_HOURS.join(", ")} hours`,
  }),
});

/** One threshold as the form sends it: a whole number in its range, or empty for the default. */
const threshold = (name: ThresholdName) => {
  const { min, max, label } = THRESHOLDS[name];
  const range = `${label}: a whole number from ${min} to ${max}, or empty for the default`;
  return z
    .union([z.literal(""), z.null(), z.coerce.number({ error: range }).int(range).min(min, range).max(max, range)])
    .optional()
    .transform((v) => (v === "" || v == null ? null : v));
};

export const thresholdsSchema = z.object({
  connectionId: z.uuid({ error: "must be a connection id" }),
  ...(Object.fromEntries(THRESHOLD_NAMES.map((name) => [name, threshold(name)])) as Record<
    ThresholdName,
    ReturnType<typeof threshold>
  >),
});
export type ThresholdsInput = z.input<typeof thresholdsSchema>;

/**
 * A webhook notice target added on the Alerts page. The rules on the address are lib/outbound's, checked on the
 * server.
 */
export const addNoticeTargetSchema = z.object({
  name: displayNameSchema({ required: "Give the target a name.", max: 100 }),
  url: z.string().trim().min(1, "Enter the URL to post notices to.").max(2048, "URLs have at most 2048 characters."),
});
export type AddNoticeTargetInput = z.input<typeof addNoticeTargetSchema>;

export const noticeTargetIdSchema = z.object({ targetId: z.uuid({ error: "must be a notice target id" }) });
export type NoticeTargetIdInput = z.infer<typeof noticeTargetIdSchema>;
