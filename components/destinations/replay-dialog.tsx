"use client";
import { useQuery } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Select } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { callAction } from "@/lib/call-action";
import type { ReplayProgress } from "@/lib/destinations/types";
import type { ForwardingActions } from "./forwarding-actions";

const PROGRESS_INTERVAL_MS = 1000;

async function fetchProgress(replayId: string): Promise<ReplayProgress> {
  const response = await fetch(`/api/replays/${replayId}`, { headers: { Accept: "application/json" } });
  const body = (await response.json().catch(() => ({}))) as ReplayProgress & { errorDescription?: string };
  if (!response.ok) throw new Error(body.errorDescription ?? `HTTP ${response.status}`);
  return body;
}

/**
 * "Replay to a destination": the events the log's current filters select (one connection's), sent to one
 * of its destinations. It says how many before it starts, shows the progress while the workers send
 * them, and can cancel what still waits.
 */
export function ReplayDialog({
  connectionId,
  connectionName,
  destinations,
  filters,
  actions,
}: {
  connectionId: string;
  connectionName: string;
  destinations: Array<{ id: string; name: string; enabled: boolean }>;
  /** The log's filters as its link says them. */
  filters: string;
  actions: ForwardingActions;
}) {
  const selectId = useId();
  const usable = destinations.filter((d) => d.enabled);
  const [open, setOpen] = useState(false);
  const [destinationId, setDestinationId] = useState(usable[0]?.id ?? "");
  const [failure, setFailure] = useState<string | null>(null);
  const [replayId, setReplayId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = { connectionId, destinationId, filters };

  // The number, asked for when the dialog opens on a destination (the filters are the page's).
  const preview = useQuery({
    queryKey: ["replay-count", connectionId, destinationId, filters],
    queryFn: async () => {
      const result = await callAction(() => actions.previewReplay({ connectionId, destinationId, filters }));
      if (!result.ok) throw new Error(result.error);
      return result.count;
    },
    enabled: open && destinationId !== "" && replayId === null,
    staleTime: 0,
  });
  const count = preview.data ?? null;

  const progress = useQuery({
    queryKey: ["replay", replayId],
    queryFn: () => fetchProgress(replayId!),
    enabled: replayId !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.state !== "running" ? false : PROGRESS_INTERVAL_MS),
  });

  const close = () => {
    setOpen(false);
    setReplayId(null);
    setFailure(null);
  };
  const start = async () => {
    setBusy(true);
    setFailure(null);
    const result = await callAction(() => actions.startReplay(input));
    setBusy(false);
    if (!result.ok) return setFailure(result.error);
    setReplayId(result.replayId);
    toast.success(`Replaying ${result.total} event${result.total === 1 ? "" : "s"}.`);
  };
  const cancel = async () => {
    if (!replayId) return;
    setBusy(true);
    const result = await callAction(() => actions.cancelReplay({ replayId }));
    setBusy(false);
    if (result.ok) toast.success(`Cancelled: ${result.cancelled} waiting event${result.cancelled === 1 ? "" : "s"} will not be sent.`);
    else toast.error(result.error);
    void progress.refetch();
  };
  const p = progress.data;

  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} disabled={usable.length === 0} title={usable.length === 0 ? `${connectionName} has no destination turned on.` : undefined}>
        <RotateCcw aria-hidden="true" className="size-4" />
        Replay…
      </Button>
      <Dialog open={open} onClose={close} title={`Replay ${connectionName}'s events`}>
        <div className="space-y-4 text-sm">
          {failure ?? preview.error ? <Alert tone="danger">{failure ?? preview.error?.message}</Alert> : null}
          {replayId === null ? (
            <>
              <p className="text-slate-700 dark:text-slate-300">
                Sends the events the log&apos;s current filters select to a destination again, signed afresh. Test events are left out. Each
                carries its own event id in <code>webhook-id</code>, so a receiver can tell it has seen one.
              </p>
              <div className="space-y-1.5">
                <label htmlFor={selectId} className="block font-medium text-slate-800 dark:text-slate-200">
                  Destination
                </label>
                <Select id={selectId} value={destinationId} onChange={(e) => setDestinationId(e.target.value)}>
                  {usable.map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.name}
                    </option>
                  ))}
                </Select>
              </div>
              <p role="status" className="font-medium" data-testid="replay-count">
                {count === null ? "Counting the events…" : count === 1 ? "1 event matches these filters." : `${count} events match these filters.`}
              </p>
              <div className="flex justify-end gap-2">
                <Button variant="secondary" onClick={close}>
                  Close
                </Button>
                <Button onClick={start} disabled={busy || !count} aria-busy={busy}>
                  {busy ? "Starting…" : `Replay ${count ?? ""} event${count === 1 ? "" : "s"}`}
                </Button>
              </div>
            </>
          ) : (
            <>
              <p role="status" aria-live="polite" data-testid="replay-progress">
                {!p
                  ? "Starting…"
                  : `${p.state === "running" ? "Sending" : p.state === "cancelled" ? "Cancelled" : "Finished"}: ${p.delivered} of ${p.total} delivered, ${p.failed} failed, ${p.waiting} waiting${p.cancelled ? `, ${p.cancelled} cancelled` : ""}.`}
              </p>
              {p ? <ReplayBar done={p.delivered + p.failed + p.cancelled} total={p.total} /> : null}
              <div className="flex justify-end gap-2">
                {p?.state === "running" ? (
                  <Button variant="danger" onClick={cancel} disabled={busy}>
                    Cancel replay
                  </Button>
                ) : null}
                <Button variant="secondary" onClick={close}>
                  Close
                </Button>
              </div>
            </>
          )}
        </div>
      </Dialog>
    </>
  );
}

function ReplayBar({ done, total }: { done: number; total: number }) {
  const percent = total === 0 ? 100 : Math.round((done / total) * 100);
  return (
    <div role="progressbar" aria-label="Replay progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 w-full rounded-full bg-slate-200 dark:bg-slate-800">
      <div className="h-2 rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400" style={{ width: `${percent}%` }} />
    </div>
  );
}
