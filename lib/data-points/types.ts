import type { ActionResult } from "@/lib/call-action";
import type { ServiceFailureKind } from "@/lib/service/result";
import type { CustomDataPoint } from "@/lib/service/schemas";

/** Client-safe shapes of the data point pages. */
export type WatchedDataPoint = {
  dataPointId: string;
  addedAt: string;
  addedBy: string | null;
  lastFetchedAt: string | null;
  lastStatus: "ok" | ServiceFailureKind | null;
  snapshot: CustomDataPoint | null;
};

export type DataPointLookup =
  | { kind: "ok"; dataPoint: CustomDataPoint; httpStatus: number }
  | { kind: "failure"; failure: ServiceFailureKind; httpStatus: number | null; message: string };

export type WatchResult = ActionResult;
export type RefreshWatchesResult = ActionResult<{ refreshed: number; failed: number }>;
