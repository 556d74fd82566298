"use client";

import { Suspense, useState } from "react";

import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { onDemand } from "@/components/ui/on-demand";
import type { DestinationSummary } from "@/lib/destinations/types";

// The form loads when an admin first reaches for the button: the page's first load does not carry it.
const Fields = onDemand(() => import("./edit-fields").then((m) => m.EditFields));

/** "Edit": a destination's URL, event types, verification methods and cap. */
export function EditDestination({ destination }: { destination: DestinationSummary }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        onMouseEnter={Fields.preload}
        onFocus={Fields.preload}
        onClick={() => setOpen(true)}
      >
        Edit
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={`Edit ${destination.name}`}>
        <Suspense fallback={<Skeleton className="h-96 w-full" />}>
          <Fields.Component destination={destination} onDone={() => setOpen(false)} />
        </Suspense>
      </Dialog>
    </>
  );
}
