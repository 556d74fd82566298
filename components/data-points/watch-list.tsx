"use client";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { callAction } from "@/lib/call-action";
import { refreshWatchesAction, unwatchDataPointAction } from "@/lib/data-points/actions";
import { dataPointFieldLabels as labels } from "@/lib/data-points/labels";
import type { WatchedDataPoint } from "@/lib/data-points/types";
import { formatYesNo } from "@/lib/field-labels";

import { DataTypeBadge, FetchStatusBadge, ModelTypeBadge } from "./badges";

/** The connection's watched data points with their last fetched snapshot; support sees it, admins change it. */
export function WatchList({
  connectionId,
  watches,
  canEdit,
}: {
  connectionId: string;
  watches: WatchedDataPoint[];
  canEdit: boolean;
}) {
  const [pending, run] = useSerialAction();
  const refresh = () =>
    run(async () => {
      const result = await callAction(() => refreshWatchesAction({ connectionId }));
      if (!result.ok) toast.error(result.error);
      else if (result.failed > 0)
        toast.warning(`Refreshed ${result.refreshed}; ${result.failed} could not be fetched.`);
      else toast.success(`Refreshed ${result.refreshed} data point${result.refreshed === 1 ? "" : "s"}.`);
    });
  const remove = (dataPointId: string) =>
    run(async () => {
      const result = await callAction(() => unwatchDataPointAction({ connectionId, dataPointId }));
      if (result.ok) toast.success(`Stopped watching ${dataPointId}.`);
      else toast.error(result.error);
    });
  return (
    <section aria-labelledby="watch-list-heading" className="space-y-3">
      <div className="flex items-center justify-between">
        <h2 id="watch-list-heading" className="text-base font-semibold">
          Watch list
        </h2>
        {watches.length > 0 ? (
          <Button variant="secondary" size="sm" onClick={refresh} disabled={pending} aria-busy={pending}>
            {pending ? "Refreshing…" : "Refresh all"}
          </Button>
        ) : null}
      </div>
      {watches.length === 0 ? (
        <EmptyState title="Nothing watched yet">
          {canEdit
            ? "Look a data point up and add it to the watch list to see it here."
            : "An administrator can add data points to this list."}
        </EmptyState>
      ) : (
        <Table caption="Watched data points">
          <thead>
            <tr>
              <Th>{labels.id}</Th>
              <Th>{labels.name}</Th>
              <Th>{labels.dataType}</Th>
              <Th>{labels.modelType}</Th>
              <Th>{labels.isPublic}</Th>
              <Th>Last fetched</Th>
              <Th>Status</Th>
              {canEdit ? (
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {watches.map((w) => (
              <tr key={w.dataPointId} data-testid={`watch-${w.dataPointId}`}>
                <Td>
                  <Link
                    className="text-indigo-700 underline dark:text-indigo-300"
                    href={`/data-points?id=${encodeURIComponent(w.dataPointId)}`}
                  >
                    <code>{w.dataPointId}</code>
                  </Link>
                </Td>
                <Td>{w.snapshot?.name ?? "—"}</Td>
                <Td>{w.snapshot ? <DataTypeBadge value={w.snapshot.dataType} /> : "—"}</Td>
                <Td>{w.snapshot ? <ModelTypeBadge value={w.snapshot.modelType} /> : "—"}</Td>
                <Td>{w.snapshot ? formatYesNo(w.snapshot.isPublic) : "—"}</Td>
                <Td>
                  <Time iso={w.lastFetchedAt} />
                </Td>
                <Td>
                  <FetchStatusBadge value={w.lastStatus} />
                </Td>
                {canEdit ? (
                  <Td>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={pending}
                      onClick={() => remove(w.dataPointId)}
                      aria-label={`Stop watching ${w.dataPointId}`}
                    >
                      Remove
                    </Button>
                  </Td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
