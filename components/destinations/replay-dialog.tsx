"use client";

import { RotateCcw } from "lucide-react";
import { Suspense, useState } from "react";

import { Button } from "@/components/ui/button";
import { onDemand } from "@/components/ui/on-demand";

// The dialog and its content load when an admin first reaches for the button (hover, focus, click): the log's
// first load carries neither; until then it is not in the page at all.
const ReplayDialogBody = onDemand(() => import("./replay-dialog-body").then((m) => m.ReplayDialogBody));

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
  const [wanted, setWanted] = useState(false);
  // Kept while the dialog is closed: it opens again on the destination last chosen.
  const [destinationId, setDestinationId] = useState(usable[0]?.id ?? "");
  const close = () => setOpen(false);
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        onPointerEnter={ReplayDialogBody.preload}
        onFocus={ReplayDialogBody.preload}
        disabled={usable.length === 0}
        title={usable.length === 0 ? `${connectionName} has no destination turned on.` : undefined}
      >
        <RotateCcw aria-hidden="true" className="size-4" />
        Replay…
      </Button>
      {wanted ? (
        <Suspense fallback={null}>
          <ReplayDialogBody.Component
            {...panel}
            open={open}
            title={`Replay ${connectionName}'s events`}
            destinations={usable}
            destinationId={destinationId}
            onDestinationChange={setDestinationId}
            onClose={close}
          />
        </Suspense>
      ) : null}
    </>
  );
}
