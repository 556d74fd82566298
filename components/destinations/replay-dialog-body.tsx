"use client";

import { Dialog } from "@/components/ui/dialog";

import { ReplayPanel } from "./replay-panel";

type PanelProps = Parameters<typeof ReplayPanel>[0];

/** The Replay dialog with its panel: one module, loaded when an admin first reaches for the button (replay-dialog.tsx). */
export function ReplayDialogBody({ open, title, ...panel }: PanelProps & { open: boolean; title: string }) {
  return (
    <Dialog open={open} onClose={panel.onClose} title={title}>
      <ReplayPanel {...panel} />
    </Dialog>
  );
}
