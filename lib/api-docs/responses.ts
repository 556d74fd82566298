import "server-only";

import { z } from "zod";

import { ALERT_KINDS, ALERT_STATES } from "@/lib/alerts/constants";
import type { AlertPage } from "@/lib/alerts/types";
import type { EventForwards, ReplayProgress } from "@/lib/destinations/types";
import type { EndUserErasureAnswer } from "@/lib/erasure/types";
import type {
  LoggedEvent,
  WebhookEventDetail,
  WebhookEventSummary,
  WebhookRejectionSummary,
} from "@/lib/webhooks/types";

/**
 * The bodies the API answers, as zod schemas: the document's components, each checked against its handler's
 * TypeScript type (`sameType` below) and, by the contract tests, against real answers. A `.meta({ id })` names a
 * component of the document.
 */

export const time = z.iso.datetime({ offset: true });
export const nullableTime = time.nullable();
const text = z.string().nullable();

/** `{ error, errorDescription }`: every answer of the API other than 200, and the receiver's too. */
export const apiErrorSchema = z
  .object({
    error: z.string().meta({
      description: "A code: invalid_request, unauthorized, forbidden, not_found, too_many_requests, unavailable, …",
      example: "invalid_request",
    }),
    errorDescription: z.string().meta({
      description: "What went wrong, in words; a bad parameter is named first.",
      example: "limit: must be a whole number from 1 to 200",
    }),
  })
  .meta({ id: "ApiError" });

export const webhookEventSummarySchema = z
  .object({
    id: z.number().int().meta({ description: "The event's row in the log: the {id} of /api/webhook-events/{id}." }),
    connectionId: z.string(),
    connectionName: text,
    eventId: z.string().meta({ description: "The service's event id (the envelope's id)." }),
    type: z.string(),
    tenantId: z.string(),
    envelopeTime: time,
    firstReceivedAt: time,
    lastReceivedAt: time,
    deliveryCount: z.number().int(),
    signatureStatus: z.string().meta({ description: "verified_key1, verified_key2 or unsigned." }),
    isTest: z.boolean().meta({ description: "Sent by the console's own “Send a test event”." }),
    userId: text,
    verificationMethod: text,
    createdAt: nullableTime,
    expiresAt: nullableTime,
    userAuthenticatorId: text,
    deviceName: text,
    devicePlatform: text,
    email: text.meta({ description: "Masked for the support role." }),
    phoneNumber: text.meta({ description: "Masked for the support role." }),
    credentialId: text,
    aaguid: text,
    credentialName: text,
  })
  .meta({ id: "WebhookEvent" });

export const webhookEventDetailSchema = webhookEventSummarySchema
  .extend({
    rawBody: z.string().meta({ description: "The body as received (personal data masked for support)." }),
    piiMasked: z.boolean(),
  })
  .meta({ id: "WebhookEventDetail" });

const cursors = {
  nextCursor: z
    .string()
    .nullable()
    .meta({ description: "Pass as `cursor` for the next (older) page; null on the last." }),
  newerCursor: z
    .string()
    .nullable()
    .meta({ description: "Pass as `cursor` for the newer rows before this page; null on the first." }),
};

const forwardOutcome = z.enum(["delivered", "waiting", "failing"]);
export const loggedEventSchema = webhookEventSummarySchema
  .extend({
    forwarding: z.object({
      outcome: forwardOutcome.nullable().meta({ description: "Where the event's forwards stand; null: none." }),
      destinations: z.array(
        z.object({
          destinationName: z.string(),
          state: z.enum([...forwardOutcome.options, "cancelled"]),
          attempts: z.number().int(),
        }),
      ),
    }),
  })
  .meta({ id: "LoggedWebhookEvent" });

export const eventPageSchema = z.object({ events: z.array(loggedEventSchema), ...cursors }).meta({ id: "EventPage" });

export const webhookRejectionSchema = z
  .object({
    id: z.number().int(),
    connectionId: z.string().nullable(),
    connectionName: text,
    receivedAt: time,
    status: z.number().int().meta({ description: "What the receiver answered." }),
    reason: z.string().meta({
      description:
        "unknown_token, too_large, unsupported_media_type, bad_signature, stale_timestamp, malformed_json, …",
    }),
    detail: text,
    eventId: text,
    bodySha256: z.string(),
    headers: z.record(z.string(), z.string()),
  })
  .meta({ id: "WebhookRejection" });

export const rejectionPageSchema = z
  .object({ rejections: z.array(webhookRejectionSchema), ...cursors })
  .meta({ id: "RejectionPage" });

export const trippedSchema = z.object({ since: time, probeAt: nullableTime }).nullable();

const forwardAttemptSchema = z.object({
  startedAt: time,
  status: z.number().int().nullable(),
  ok: z.boolean(),
  latencyMs: z.number(),
  outcome: z.string(),
  responseBody: z
    .string()
    .nullable()
    .meta({ description: "The start of the destination's answer (at most 4 KiB): admins only, null for support." }),
});

export const eventForwardsSchema = z
  .object({
    destinationId: z.string(),
    destinationName: z.string(),
    enabled: z.boolean(),
    notForwarded: text,
    tripped: trippedSchema,
    deliveries: z.array(
      z.object({
        id: z.number().int(),
        state: z.enum(["pending", "delivered", "failed", "cancelled"]),
        origin: z.string(),
        createdAt: time,
        dueAt: time,
        attempts: z.array(forwardAttemptSchema),
      }),
    ),
  })
  .meta({ id: "EventForwards" });

export const eventForwardsListSchema = z
  .object({ destinations: z.array(eventForwardsSchema) })
  .meta({ id: "EventForwardsList" });

export const replayProgressSchema = z
  .object({
    replayId: z.string(),
    connectionId: z.string(),
    destinationName: z.string(),
    total: z.number().int(),
    queued: z.number().int(),
    delivered: z.number().int(),
    failed: z.number().int(),
    cancelled: z.number().int(),
    waiting: z.number().int(),
    state: z.enum(["queuing", "running", "finished", "cancelled"]),
  })
  .meta({ id: "ReplayProgress" });

const alertMeasureSchema = z.object({
  value: z.number(),
  threshold: z.number(),
  windowMinutes: z.number().nullable(),
  lastEventAt: nullableTime.optional(),
  destinationName: z.string().optional(),
  paused: z.boolean().optional(),
  failingSince: nullableTime.optional(),
  signingProblem: z.string().nullable().optional(),
  tripped: trippedSchema.optional(),
});

export const alertSchema = z
  .object({
    id: z.string(),
    kind: z.enum(ALERT_KINDS),
    state: z.enum(ALERT_STATES),
    connection: z.object({ id: z.string(), name: z.string(), region: z.string() }),
    subject: text,
    summary: z.string(),
    measure: alertMeasureSchema,
    openedAt: time,
    lastSeenAt: time,
    clearSince: nullableTime,
    resolvedAt: nullableTime,
    acknowledgedAt: nullableTime,
    acknowledgedBy: text,
    mutedUntil: nullableTime,
    href: z.string().meta({ description: "The console's page where the alert's events are." }),
    notices: z.object({ sent: z.number().int(), pending: z.number().int(), failed: z.number().int(), problem: text }),
  })
  .meta({ id: "Alert" });

export const alertPageSchema = z
  .object({
    alerts: z.array(alertSchema),
    total: z.number().int().meta({ description: "How many alerts the filters select (the list stops at limit)." }),
    lastEvaluatedAt: nullableTime,
  })
  .meta({ id: "AlertPage" });

const erased = (description: string) => z.number().int().meta({ description });

export const endUserErasureSchema = z
  .object({
    userIdHash: z.string().meta({
      description:
        "HMAC-SHA256 of the user id (hex) under a key of the console's own: how the audit log names the user, the same at a second erasure of them.",
    }),
    connectionId: z.string().nullable().meta({ description: "The connection erased in; null: every connection." }),
    erased: z
      .object({
        events: erased("Events of the user, stored from the service's webhooks."),
        rejections: erased("Refused deliveries of those events."),
        deliveries: erased("Their forwards' deliveries, queued or done."),
        attempts: erased("Those deliveries' recorded attempts, with the destinations' answers."),
        watches: erased("Watch list entries whose data point named the user."),
        auditRecords: erased("Audit records that named the user, now naming nobody."),
        replays: erased("Replays whose filters named the user, now naming nobody."),
      })
      .meta({ id: "ErasureCounts" }),
  })
  .meta({ id: "EndUserErasure" });

export const healthSchema = z
  .object({ status: z.enum(["ok", "unavailable"]), database: z.enum(["reachable", "unreachable"]) })
  .meta({ id: "Health" });

export const readySchema = z
  .object({
    status: z.enum(["ready", "starting", "draining", "unavailable"]),
    database: z.enum(["reachable", "unreachable"]).optional(),
  })
  .meta({ id: "Readiness" });

export const receivedSchema = z.object({ success: z.literal(true) }).meta({ id: "Received" });

// The handlers' own types against these schemas: a difference either way fails `npm run typecheck`.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const sameType = <A, B>(same: Same<A, B>) => same;
sameType<z.infer<typeof webhookEventSummarySchema>, WebhookEventSummary>(true);
sameType<z.infer<typeof webhookEventDetailSchema>, WebhookEventDetail>(true);
sameType<z.infer<typeof loggedEventSchema>, LoggedEvent>(true);
sameType<z.infer<typeof webhookRejectionSchema>, WebhookRejectionSummary>(true);
sameType<z.infer<typeof eventForwardsSchema>, EventForwards>(true);
sameType<z.infer<typeof replayProgressSchema>, ReplayProgress>(true);
sameType<z.infer<typeof alertPageSchema>, AlertPage>(true);
sameType<z.infer<typeof endUserErasureSchema>, EndUserErasureAnswer>(true);
