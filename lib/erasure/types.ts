/** Client-safe shapes of an end user's erasure. */

import type { ActionFailure } from "@/lib/call-action";

/** What an erasure removes or rewrites, by kind; counts only. */
export type ErasureCounts = {
  events: number;
  rejections: number;
  deliveries: number;
  attempts: number;
  /** Watch list entries whose data point names the user, removed. */
  watches: number;
  /** Audit records that named the user (a lookup's target, a replay's filters), rewritten to name nobody. */
  auditRecords: number;
  /** Replays whose filters named the user, rewritten. */
  replays: number;
};

/** One connection's events of the user, and what hangs on them. */
export type ConnectionErasureCounts = Pick<ErasureCounts, "events" | "rejections" | "deliveries" | "attempts"> & {
  connectionId: string;
  connectionName: string;
};

/** What an erasure would remove, counted before it is confirmed. */
export type ErasurePreview = {
  ok: true;
  userId: string;
  /** The one connection asked about; null: every connection. */
  connectionName: string | null;
  /** The connections that hold events of the user, by name. */
  connections: ConnectionErasureCounts[];
  total: ErasureCounts;
  /** Erasures of this user recorded before (matched by the keyed hash of the id). */
  erasedBefore: { count: number; lastAt: string | null };
};

export type ErasurePreviewResult = ErasurePreview | ErasureFailure;

/** A finished erasure: what it erased, and the keyed hash its audit record names the user by. */
export type ErasureOutcome = { ok: true; erased: ErasureCounts; userIdHash: string; connectionId: string | null };

/** What DELETE /api/end-users/{userId} answers. */
export type EndUserErasureAnswer = Omit<ErasureOutcome, "ok">;

/** A refusal: the input does not parse (`invalid_request`), or its connection is gone (`not_found`). */
type ErasureFailure = ActionFailure & { failure?: "invalid_request" | "not_found" };

export type ErasureResult = ErasureOutcome | ErasureFailure;
