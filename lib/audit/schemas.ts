import { z } from "zod";

/** The audit page's URL filters, validated on the server. Client-safe. */

/** `<input type="datetime-local">` sends no zone; the page labels it UTC, so read it as UTC. */
const utcTime = z.preprocess(
  (v) =>
    typeof v === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(v)
      ? `${v}${v.length === 16 ? ":00" : ""}Z`
      : v || undefined,
  z.iso.datetime({ offset: true }).optional(),
);

export const auditFilterSchema = z.object({
  actor: z
    .string()
    .trim()
    .max(320)
    .optional()
    .transform((v) => v || undefined)
    .catch(undefined),
  action: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => v || undefined)
    .catch(undefined),
  connectionId: z.uuid().optional().catch(undefined),
  from: utcTime.catch(undefined),
  to: utcTime.catch(undefined),
  cursor: z.string().max(200).optional().catch(undefined),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/**
 * The audit page's search parameters (the first of repeated ones): the filter, and the times as they
 * were typed, which the form shows again (the filter holds them as UTC ISO times).
 */
export function parseAuditSearch(search: Record<string, string | string[] | undefined>): {
  filter: AuditFilter;
  typedTimes: { from?: string; to?: string };
} {
  const first = Object.fromEntries(
    Object.entries(search).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
  );
  return { filter: auditFilterSchema.parse(first), typedTimes: { from: first.from, to: first.to } };
}

/** The filter as a URL query, empty fields left out: the audit page's links, and what its table is keyed by. */
export function auditFilterQuery(filter: AuditFilter): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value) params.set(name, value);
  return params.toString();
}

/** What a record may say was done, by what it was done to: the audit page's action filter offers each, in these groups. */
export const auditActionGroups = {
  Connections: [
    "connection.created",
    "connection.updated",
    "connection.key_replaced",
    "connection.deleted",
    "webhook.url_regenerated",
    "webhook.test_sent",
  ],
  "Data points and email OTP": ["data_point.watched", "data_point.unwatched", "email_otp.deleted"],
  Destinations: [
    "destination.created",
    "destination.updated",
    "destination.enabled",
    "destination.disabled",
    "destination.paused",
    "destination.resumed",
    "destination.rate_changed",
    "destination.removed",
    "destination.secret_revealed",
    "destination.secret_rotated",
    "destination.test_sent",
    "destination.resent",
    "destination.replay_started",
    "destination.replay_cancelled",
  ],
  Alerts: [
    "alert.acknowledged",
    "alert.muted",
    "alert.unmuted",
    "alert.thresholds_changed",
    "alert.target_added",
    "alert.target_removed",
    "alert.target_tested",
  ],
  Team: [
    "user.created",
    "user.disabled",
    "user.enabled",
    "user.password_set",
    "user.password_link_created",
    "user.role_changed",
    "user.sessions_revoked",
    "user.unlocked",
  ],
  "Sign-in": ["sign_in.throttled", "sign_in.sso", "sign_in.sso_refused"],
  "API tokens": [
    "api_token.created",
    "api_token.revoked",
    "api_token.used_from_new_address",
    "api_token.guesses_throttled",
  ],
  "End users": ["user_authenticators.viewed", "end_user.erased"],
} as const;
/** lib/audit/audit.ts takes no other action, so every action written is one the filter offers. */
export type AuditAction = (typeof auditActionGroups)[keyof typeof auditActionGroups][number];
