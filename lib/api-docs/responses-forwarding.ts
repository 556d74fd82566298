import "server-only";

import { z } from "zod";

import { SIGNING_MODE_VALUES } from "@/lib/destinations/constants";
import type {
  DestinationSummary,
  DestinationTestResult,
  ReplayPreview,
  RunningReplay,
  StartReplayResult,
} from "@/lib/destinations/types";

import { nullableTime, sameType, time, trippedSchema } from "./responses";

/** The answers of forwarding's routes that write (destinations, a resend, replays), beside ./responses.ts. */

const count = (description: string) => z.number().int().meta({ description });

export const destinationSummarySchema = z
  .object({
    id: z.string(),
    connectionId: z.string(),
    name: z.string(),
    url: z.string().meta({ description: "Where it forwards to; the support role sees its origin only." }),
    enabled: z.boolean().meta({ description: "false: turned off, nothing is queued for it or sent." }),
    signing: z.enum(SIGNING_MODE_VALUES),
    eventTypes: z.array(z.string()).nullable().meta({ description: "The event types it takes; null: every one." }),
    verificationMethods: z
      .array(z.string())
      .nullable()
      .meta({ description: "The verification methods it takes; null: every one." }),
    includeUnverified: z.boolean(),
    maxPerSecond: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Deliveries started per second at most; null: no cap." }),
    previousSecretExpiresAt: nullableTime.meta({
      description: "Until when a rotated secret still signs beside the new one.",
    }),
    createdAt: time,
    health: z.object({
      state: z.enum(["delivered", "failing", "tripped", "paused", "off"]),
      attempts24h: count("Attempts in the last 24 hours."),
      delivered24h: count("Of those, delivered."),
      successRate: z.number().nullable(),
      p95LatencyMs: z.number().nullable(),
      pending: count("Deliveries waiting for their next attempt."),
      failingSince: nullableTime,
      pausedAt: nullableTime,
      tripped: trippedSchema,
      signingProblem: z
        .string()
        .nullable()
        .meta({ description: "Why it cannot sign now, and what to do; null: it can." }),
    }),
  })
  .meta({ id: "Destination" });

export const destinationListSchema = z
  .object({ destinations: z.array(destinationSummarySchema) })
  .meta({ id: "DestinationList" });

export const createdDestinationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    secret: z.string().nullable().meta({
      description:
        "A Standard Webhooks destination's signing secret (`whsec_…`), in this answer only: the console never shows it again. null when it signs as the service.",
    }),
  })
  .meta({ id: "CreatedDestination" });

export const removedDestinationSchema = z
  .object({ id: z.string(), name: z.string(), removed: z.literal(true) })
  .meta({ id: "RemovedDestination" });

export const resentSchema = z
  .object({ queued: z.literal(true), eventId: z.string(), destinationId: z.string() })
  .meta({ id: "Resent" });

export const destinationTestSchema = z
  .object({
    delivered: z.boolean(),
    status: z.number().int().nullable().meta({ description: "The destination's answer; null when none came." }),
    durationMs: z.number().int(),
    error: z.string().optional().meta({ description: "Why it was not delivered, in words; absent when it was." }),
    eventId: z.string().meta({ description: "The test event's id (`console-test-…`), as its attempt lists it." }),
  })
  .meta({ id: "DestinationTest" });

const skipped = {
  skippedUnverified: count("Events the filters select that the destination must not get: not verified."),
  skippedUnverifiedWhy: z.string().nullable().meta({ description: "Why, in a sentence; null when none is." }),
  skippedByFilters: count("Events the destination's own event types and methods leave out."),
};

const runningReplaySchema = z.object({
  replayId: z.string(),
  startedAt: time,
  total: z.number().int(),
  queued: z.number().int(),
  waiting: z.number().int(),
});

export const replayPreviewSchema = z
  .object({
    count: count("The events it would send."),
    ...skipped,
    maxEvents: count("The most one replay may send; a larger one is refused."),
    maxPerSecond: z.number().int().nullable(),
    running: runningReplaySchema
      .nullable()
      .meta({ description: "A replay to this destination still running: cancel it or wait before starting one." }),
  })
  .meta({ id: "ReplayPreview" });

export const replayStartedSchema = z
  .object({
    replayId: z.string().meta({ description: "Its id, for GET /api/replays/{id} and its cancel." }),
    total: count("The events it sends."),
    ...skipped,
  })
  .meta({ id: "ReplayStarted" });

export const replayCancelledSchema = z
  .object({ replayId: z.string(), cancelled: count("Its waiting deliveries, dropped.") })
  .meta({ id: "ReplayCancelled" });

sameType<z.infer<typeof destinationSummarySchema>, DestinationSummary>(true);
sameType<z.infer<typeof destinationTestSchema>, Omit<Extract<DestinationTestResult, { ok: true }>, "ok">>(true);
sameType<z.infer<typeof replayPreviewSchema>, ReplayPreview>(true);
sameType<z.infer<typeof runningReplaySchema>, RunningReplay>(true);
sameType<z.infer<typeof replayStartedSchema>, Omit<Extract<StartReplayResult, { ok: true }>, "ok">>(true);
