"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";

import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { callAction } from "@/lib/call-action";
import type { WatchDataPointInput } from "@/lib/data-points/schemas";
import type { WatchResult } from "@/lib/data-points/types";

export type WatchDataPointAction = (input: WatchDataPointInput) => Promise<WatchResult>;

/** Adds the looked-up data point to the watch list; disabled once it is on it. */
export function WatchDataPointButton({
  connectionId,
  dataPointId,
  watched,
  watchAction,
}: {
  connectionId: string;
  dataPointId: string;
  watched: boolean;
  watchAction: WatchDataPointAction;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <Button
      variant="secondary"
      disabled={watched || pending}
      onClick={() =>
        startTransition(async () => {
          const result = await callAction(() => watchAction({ connectionId, dataPointId }));
          if (result.ok) toast.success(`Watching ${dataPointId}.`);
          else toast.error(result.error);
          router.refresh();
        })
      }
    >
      {watched ? "On the watch list" : "Add to watch list"}
    </Button>
  );
}
