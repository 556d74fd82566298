"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { Time } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { callAction } from "@/lib/call-action";
import { cancelReplayAction, previewReplayAction, startReplayAction } from "@/lib/destinations/actions";
import { RATE_SPACING } from "@/lib/destinations/constants";
import { replayDurationWords } from "@/lib/destinations/replay-time";
import type { ReplayPreview, ReplayProgress } from "@/lib/destinations/types";

const PROGRESS_INTERVAL_MS = 1000;

async function fetchProgress(replayId: string): Promise<ReplayProgress> {
  const response = await fetch(`/api/replays/${replayId}`, { headers: { Accept: "application/json" } });
  const body = (await response.json().catch(() => ({}))) as ReplayProgress & { errorDescription?: string };
  if (!response.ok) throw new Error(body.errorDescription ?? `HTTP ${response.status}`);
  return body;
}

const count = (n: number) => n.toLocaleString("en");
const events = (n: number) => `${count(n)} event${n === 1 ? "" : "s"}`;
/** Polled while it queues or sends; finished and cancelled do not change. */
const moving = (state: ReplayProgress["state"] | undefined) =>
  state === undefined || state === "queuing" || state === "running";

/**
 * The Replay dialog's content (loaded on first open): what would be sent, left out and why, how long at the rate cap,
 * and any replay to it still running (one at a time: it offers to cancel); then the progress, and a cancel of what
 * waits. Mounted while the dialog is open, so each opening starts afresh.
 */
export function ReplayPanel({
  connectionId,
  destinations,
  destinationId,
  onDestinationChange,
  filters,
  onClose,
}: {
  connectionId: string;
  /** The connection's destinations that are turned on. */
  destinations: Array<{ id: string; name: string }>;
  destinationId: string;
  onDestinationChange: (id: string) => void;
  /** The log's filters as its link says them. */
  filters: string;
  onClose: () => void;
}) {
  const selectId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const [replayId, setReplayId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = { connectionId, destinationId, filters };
  const destinationName = destinations.find((d) => d.id === destinationId)?.name ?? "This destination";

  // The numbers, asked for when the dialog opens on a destination (the filters are the page's).
  const preview = useQuery({
    queryKey: ["replay-count", connectionId, destinationId, filters],
    queryFn: async (): Promise<ReplayPreview> => {
      const result = await callAction(() => previewReplayAction({ connectionId, destinationId, filters }));
      if (!result.ok) throw new Error(result.error);
      return result;
    },
    enabled: destinationId !== "" && replayId === null,
    staleTime: 0,
  });
  const p = preview.data;

  const progress = useQuery({
    queryKey: ["replay", replayId],
    queryFn: () => fetchProgress(replayId!),
    enabled: replayId !== null,
    refetchInterval: (q) => (moving(q.state.data?.state) ? PROGRESS_INTERVAL_MS : false),
  });

  const start = async () => {
    setBusy(true);
    setFailure(null);
    const result = await callAction(() => startReplayAction(input));
    setBusy(false);
    if (!result.ok) {
      setFailure(result.error);
      // Another replay started meanwhile: the preview shows it, with its Cancel.
      if ("runningReplayId" in result && result.runningReplayId) void preview.refetch();
      return;
    }
    setReplayId(result.replayId);
    toast.success(`Replaying ${events(result.total)}.`);
  };
  const cancel = async (id: string) => {
    setBusy(true);
    const result = await callAction(() => cancelReplayAction({ replayId: id }));
    setBusy(false);
    if (result.ok) toast.success(`Cancelled: ${events(result.cancelled)} waiting will not be sent.`);
    else toast.error(result.error);
    if (id === replayId) void progress.refetch();
    else {
      setFailure(null);
      void preview.refetch();
    }
  };
  const r = progress.data;
  const tooMany = p ? p.count > p.maxEvents : false;
  const blocked = !p || p.count === 0 || tooMany || p.running !== null;

  return (
    <div className="space-y-4 text-sm">
      {(failure ?? preview.error) ? <Alert tone="danger">{failure ?? preview.error?.message}</Alert> : null}
      {replayId === null ? (
        <>
          <p className="text-slate-700 dark:text-slate-300">
            Sends the events the log&apos;s current filters select to a destination again, signed afresh. Test events
            are left out. Each carries its own event id in <code>webhook-id</code>, so a receiver can tell it has seen
            one.
          </p>
          <div className="space-y-1.5">
            <label htmlFor={selectId} className="block font-medium text-slate-800 dark:text-slate-200">
              Destination
            </label>
            <Select id={selectId} autoFocus value={destinationId} onChange={(e) => onDestinationChange(e.target.value)}>
              {destinations.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </Select>
          </div>
          <div role="status" className="space-y-1.5">
            <p className="font-medium" data-testid="replay-count">
              {!p ? "Counting the events…" : countWords(p)}
            </p>
            {p?.skippedUnverifiedWhy ? (
              <p className="text-slate-700 dark:text-slate-300">{p.skippedUnverifiedWhy}</p>
            ) : null}
            {p && p.skippedByFilters > 0 ? (
              <p className="text-slate-700 dark:text-slate-300">
                {events(p.skippedByFilters)} {p.skippedByFilters === 1 ? "is" : "are"} left out by {destinationName}
                &apos;s own event types and verification methods.
              </p>
            ) : null}
            {p && p.maxPerSecond !== null && p.count > 0 && !tooMany ? (
              <p className="text-slate-700 dark:text-slate-300" data-testid="replay-duration">
                Sending {p.count === 1 ? "it" : "them"} takes{" "}
                {replayDurationWords(p.count, p.maxPerSecond / RATE_SPACING)} at {count(p.maxPerSecond)} per second,{" "}
                {destinationName}&apos;s limit, which its live events share.
              </p>
            ) : null}
          </div>
          {p && tooMany ? (
            <Alert tone="danger">
              This replay would send {events(p.count)}; at most {count(p.maxEvents)} at once: narrow the log&apos;s
              filters (a shorter time window, say).
            </Alert>
          ) : null}
          {p?.running ? (
            <Alert tone="warning" title={`A replay to ${destinationName} is still running`}>
              <p>
                Started <Time iso={p.running.startedAt} />,{" "}
                {p.running.queued < p.running.total
                  ? `${count(p.running.queued)} of ${count(p.running.total)} queued so far`
                  : `${count(p.running.waiting)} of ${count(p.running.total)} still waiting`}
                . One replay runs at a time per destination: wait until it finishes, or cancel it to start this one.
              </p>
              <div className="mt-2 flex flex-wrap gap-2">
                <Button size="sm" variant="secondary" onClick={() => setReplayId(p.running!.replayId)}>
                  Show its progress
                </Button>
                <Button size="sm" variant="danger" onClick={() => cancel(p.running!.replayId)} disabled={busy}>
                  Cancel the running replay
                </Button>
              </div>
            </Alert>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Button onClick={start} disabled={busy || blocked} aria-busy={busy}>
              {busy ? "Starting…" : `Replay ${p ? count(p.count) : ""} event${p?.count === 1 ? "" : "s"}`}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p role="status" aria-live="polite" data-testid="replay-progress">
            {!r ? "Starting…" : progressWords(r)}
          </p>
          {r ? <ReplayBar done={r.delivered + r.failed + r.cancelled} total={r.total} /> : null}
          <div className="flex justify-end gap-2">
            {moving(r?.state) && r ? (
              <Button variant="danger" onClick={() => cancel(r.replayId)} disabled={busy}>
                Cancel replay
              </Button>
            ) : null}
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </>
      )}
    </div>
  );
}

/** "1 event matches these filters.", or with some left out, how many of those that match will be sent. */
function countWords(p: ReplayPreview): string {
  const matching = p.count + p.skippedUnverified + p.skippedByFilters;
  const matches = `${events(matching)} match${matching === 1 ? "es" : ""} these filters`;
  return matching === p.count ? `${matches}.` : `${matches}; ${count(p.count)} will be sent.`;
}

function progressWords(r: ReplayProgress): string {
  const sent = `${count(r.delivered)} of ${count(r.total)} delivered, ${count(r.failed)} failed, ${count(r.waiting)} waiting${r.cancelled ? `, ${count(r.cancelled)} cancelled` : ""}`;
  switch (r.state) {
    case "queuing":
      return `Queuing: ${count(r.queued)} of ${count(r.total)} queued; ${sent}.`;
    case "running":
      return `Sending: ${sent}.`;
    case "cancelled":
      return `Cancelled: ${sent}.`;
    case "finished":
      return `Finished: ${sent}.`;
  }
}

function ReplayBar({ done, total }: { done: number; total: number }) {
  const percent = total === 0 ? 100 : Math.round((done / total) * 100);
  return (
    <div
      role="progressbar"
      aria-label="Replay progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-2 w-full rounded-full bg-slate-200 dark:bg-slate-800"
    >
      <div
        className="h-2 rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400"
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
