"use server";
import { revalidatePath } from "next/cache";
import { refreshWatches, unwatchDataPoint, watchDataPoint } from "@/lib/data-points/data-points";
import type { RefreshWatchesResult, WatchResult } from "@/lib/data-points/types";
import { refreshWatchesSchema, type WatchDataPointInput } from "@/lib/data-points/schemas";
import { runActionAs } from "@/lib/server-action";

export async function watchDataPointAction(input: WatchDataPointInput): Promise<WatchResult> {
  return runActionAs("admin", "watchDataPointAction", async (user) => {
    const result = await watchDataPoint(user, input);
    revalidatePath("/data-points");
    return result;
  });
}

export async function unwatchDataPointAction(input: WatchDataPointInput): Promise<WatchResult> {
  return runActionAs("admin", "unwatchDataPointAction", async (user) => {
    const result = await unwatchDataPoint(user, input);
    revalidatePath("/data-points");
    return result;
  });
}

/** A refresh re-reads the service and changes no list, so support may run it too. */
export async function refreshWatchesAction(input: { connectionId: string }): Promise<RefreshWatchesResult> {
  return runActionAs("support", "refreshWatchesAction", async (): Promise<RefreshWatchesResult> => {
    const parsed = refreshWatchesSchema.safeParse(input);
    if (!parsed.success) return { ok: false, error: "Choose a connection." };
    const result = await refreshWatches(parsed.data.connectionId);
    revalidatePath("/data-points");
    return result;
  });
}
