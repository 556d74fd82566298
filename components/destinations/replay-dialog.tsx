"use client";

import { RotateCcw } from "lucide-react";
import { Suspense, useState } from "react";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { onDemand } from "@/components/ui/on-demand";

// The dialog's content loads when an admin first reaches for the button (hover, focus, click): the log's
// first load does not carry it.
const ReplayPanel = onDemand(() => import("./replay-panel").then((m) => m.ReplayPanel));

/**
 * "Replay to a destination": the events the log's current filters select (one connection's), sent to one
 * of its destinations, in a dialog (replay-panel.tsx) that says first what it would send.
 */
export function ReplayDialog({
  connectionName,
  destinations,
  ...panel
}: {
  connectionId: string;
  connectionName: string;
  destinations: Array<{ id: string; name: string; enabled: boolean }>;
  /** The log's filters as its link says them. */
  filters: string;
}) {
  const usable = destinations.filter((d) => d.enabled);
  const [open, setOpen] = useState(false);
  // Kept while the dialog is closed: it opens again on the destination last chosen.
  const [destinationId, setDestinationId] = useState(usable[0]?.id ?? "");
  const close = () => setOpen(false);
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => setOpen(true)}
        onPointerEnter={ReplayPanel.preload}
        onFocus={ReplayPanel.preload}
        disabled={usable.length === 0}
        title={usable.length === 0 ? `${connectionName} has no destination turned on.` : undefined}
      >
        <RotateCcw aria-hidden="true" className="size-4" />
        Replay…
      </Button>
      <Dialog open={open} onClose={close} title={`Replay ${connectionName}'s events`}>
        <Suspense
          fallback={
            <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
              Loading…
            </p>
          }
        >
          <ReplayPanel.Component
            {...panel}
            destinations={usable}
            destinationId={destinationId}
            onDestinationChange={setDestinationId}
            onClose={close}
          />
        </Suspense>
      </Dialog>
    </>
  );
}
