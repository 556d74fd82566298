import "server-only";

import crypto from "node:crypto";

import { getDb } from "@/lib/db";
import { webhookRejections } from "@/lib/db/schema";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { countRefusal } from "@/lib/metrics/metrics";

import { REJECTION_REASON_VALUES } from "./types";

export const REJECTION_REASONS = REJECTION_REASON_VALUES;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** Headers worth keeping to explain a refusal; nothing else of the request is stored. */
const KEPT_HEADERS = [
  "content-type",
  "content-length",
  "user-agent",
  "x-signature-v2",
  "x-forwarded-for",
  "x-request-id",
];

export function allowListedHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value.slice(0, 1000);
  }
  return kept;
}

/**
 * A fixed-window limit per token: a flood of bad requests records at most this many rows a minute
 * for one URL, so it cannot fill the disk. Per instance (in memory): N instances keep at most N times as many.
 */
export const REJECTIONS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;
const MAX_TRACKED_TOKENS = 10_000;
const windows = new Map<string, { startedAt: number; count: number; dropped: number }>();

export function shouldRecordRejection(tokenKey: string, nowMs = Date.now()): boolean {
  let window = windows.get(tokenKey);
  if (!window || nowMs - window.startedAt >= WINDOW_MS) {
    if (window?.dropped) logger.warn("webhook rejections were not recorded (rate limit)", { dropped: window.dropped });
    if (windows.size >= MAX_TRACKED_TOKENS) windows.clear();
    window = { startedAt: nowMs, count: 0, dropped: 0 };
    windows.set(tokenKey, window);
  }
  if (window.count >= REJECTIONS_PER_MINUTE) {
    window.dropped += 1;
    return false;
  }
  window.count += 1;
  return true;
}

/** Forgets the rate-limit windows (tests). */
export function resetRejectionLimits(): void {
  windows.clear();
}

export type Rejection = {
  tokenKey: string;
  connectionId: string | null;
  status: number;
  reason: RejectionReason;
  detail: string;
  eventId: string | null;
  body: Buffer;
  headers: Headers;
  receivedAt: Date;
};

/** Records a refused request; never throws (a failure to record must not change the answer). */
export async function recordRejection(rejection: Rejection): Promise<void> {
  // Counted before the rate limit: the metric tells a flood's size, the rows only its first examples.
  countRefusal(rejection.connectionId, rejection.reason);
  if (!shouldRecordRejection(rejection.tokenKey)) return;
  try {
    const db = await getDb();
    await db.insert(webhookRejections).values({
      connectionId: rejection.connectionId,
      receivedAt: rejection.receivedAt,
      status: rejection.status,
      reason: rejection.reason,
      detail: rejection.detail.slice(0, 500),
      eventId: rejection.eventId,
      bodySha256: crypto.createHash("sha256").update(rejection.body).digest("hex"),
      headers: allowListedHeaders(rejection.headers),
    });
  } catch (error) {
    logger.error("could not record a webhook rejection", { reason: rejection.reason, error: errorMessage(error) });
  }
}
