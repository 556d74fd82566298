"use client";

import { useTransition } from "react";

import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { callAction } from "@/lib/call-action";
import { watchDataPointAction } from "@/lib/data-points/actions";

/** Adds the looked-up data point to the watch list; disabled once it is on it. */
export function WatchDataPointButton({
  connectionId,
  dataPointId,
  watched,
}: {
  connectionId: string;
  dataPointId: string;
  watched: boolean;
}) {
  const [pending, startTransition] = useTransition();
  return (
    <Button
      variant="secondary"
      disabled={watched || pending}
      onClick={() =>
        startTransition(async () => {
          const result = await callAction(() => watchDataPointAction({ connectionId, dataPointId }));
          if (result.ok) toast.success(`Watching ${dataPointId}.`);
          else toast.error(result.error);
        })
      }
    >
      {watched ? "On the watch list" : "Add to watch list"}
    </Button>
  );
}
