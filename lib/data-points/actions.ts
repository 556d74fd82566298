"use server";

import { refreshWatches, unwatchDataPoint, watchDataPoint } from "@/lib/data-points/data-points";
import { refreshWatchesSchema, type WatchDataPointInput } from "@/lib/data-points/schemas";
import type { RefreshWatchesResult, WatchResult } from "@/lib/data-points/types";
import { runAction } from "@/lib/server-action";

// The watch list is revalidated after a failure too: one may come from a change someone else made.
const watchList = { revalidate: ["/data-points"], revalidateOnFailure: true } as const;

export async function watchDataPointAction(input: WatchDataPointInput): Promise<WatchResult> {
  return runAction({ name: "watchDataPointAction", role: "admin", ...watchList }, (user) =>
    watchDataPoint(user, input),
  );
}

export async function unwatchDataPointAction(input: WatchDataPointInput): Promise<WatchResult> {
  return runAction({ name: "unwatchDataPointAction", role: "admin", ...watchList }, (user) =>
    unwatchDataPoint(user, input),
  );
}

/** A refresh re-reads the service and changes no list, so support may run it too. */
export async function refreshWatchesAction(input: { connectionId: string }): Promise<RefreshWatchesResult> {
  return runAction(
    {
      name: "refreshWatchesAction",
      role: "support",
      parse: { schema: refreshWatchesSchema, input, invalid: "Choose a connection." },
      ...watchList,
    },
    (_user, { connectionId }) => refreshWatches(connectionId),
  );
}
