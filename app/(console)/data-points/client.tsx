"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useTransition } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Alert, Card, EmptyState } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { callAction } from "@/lib/call-action";
import type { ConnectionChoice } from "@/lib/connections/types";
import { dataPointFieldLabels as labels } from "@/lib/data-points/labels";
import { lookUpDataPointSchema, type LookUpDataPointInput } from "@/lib/data-points/schemas";
import type { DataPointLookup, WatchedDataPoint } from "@/lib/data-points/types";
import { formatYesNo } from "@/lib/field-labels";
import { refreshWatchesAction, unwatchDataPointAction, watchDataPointAction } from "./actions";
import { DataTypeBadge, FetchStatusBadge, ModelTypeBadge } from "./badges";

/** Looking up puts the id in the URL, so a lookup can be shared as a link. */
export function DataPointLookupForm({ initialId }: { initialId: string }) {
  const router = useRouter();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LookUpDataPointInput>({ resolver: zodResolver(lookUpDataPointSchema), defaultValues: { id: initialId } });
  return (
    <form
      role="search"
      noValidate
      className="flex max-w-xl items-end gap-2"
      onSubmit={handleSubmit(({ id }) => router.push(`/data-points?id=${encodeURIComponent(id)}`))}
    >
      <div className="flex-1">
        <Field id="data-point-id" label="Data point id" error={errors.id?.message}>
          <Input id="data-point-id" placeholder="dp_loyalty_tier" spellCheck={false} aria-invalid={errors.id ? true : undefined} {...register("id")} />
        </Field>
      </div>
      <Button type="submit">Look up</Button>
    </form>
  );
}

export function DataPointLookupResult({
  lookup,
  id,
  connection,
  canWatch,
  watched,
}: {
  lookup: DataPointLookup;
  id: string;
  connection: ConnectionChoice;
  canWatch: boolean;
  watched: boolean;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  if (lookup.kind === "failure") {
    return (
      <div aria-live="polite">
        <Alert tone={lookup.failure === "not_found" ? "warning" : "danger"} title={lookup.failure === "not_found" ? "Not found" : "Lookup failed"}>
          <p>{lookup.message}</p>
          {lookup.failure === "unauthorized" ? (
            canWatch ? (
              <Link className="font-medium underline" href={`/connections/${connection.id}`}>
                Replace the key of {connection.name}
              </Link>
            ) : (
              <p>Ask an administrator to replace the key.</p>
            )
          ) : null}
        </Alert>
      </div>
    );
  }
  const dp = lookup.dataPoint;
  return (
    <Card>
      <div aria-live="polite" className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold" data-testid="data-point-name">
            {dp.name}
          </h2>
          <p className="text-sm text-slate-600">{dp.description || <span className="text-slate-400">No description</span>}</p>
        </div>
        {canWatch ? (
          <Button
            variant="secondary"
            disabled={watched || pending}
            onClick={() =>
              startTransition(async () => {
                const result = await callAction(() => watchDataPointAction({ connectionId: connection.id, dataPointId: id }));
                if (result.ok) toast.success(`Watching ${id}.`);
                else toast.error(result.error);
                router.refresh();
              })
            }
          >
            {watched ? "On the watch list" : "Add to watch list"}
          </Button>
        ) : null}
      </div>
      <dl className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-2 text-sm [&>dd]:wrap-anywhere [&>dt]:text-slate-500">
        <dt>{labels.id}</dt>
        <dd>
          <code>{dp.id}</code>
        </dd>
        <dt>{labels.name}</dt>
        <dd>{dp.name}</dd>
        <dt>{labels.dataType}</dt>
        <dd>
          <DataTypeBadge value={dp.dataType} />
        </dd>
        <dt>{labels.modelType}</dt>
        <dd>
          <ModelTypeBadge value={dp.modelType} />
        </dd>
        <dt>{labels.description}</dt>
        <dd>{dp.description}</dd>
        <dt>{labels.isPublic}</dt>
        <dd>{formatYesNo(dp.isPublic)}</dd>
      </dl>
    </Card>
  );
}

export function WatchList({ connectionId, watches, canEdit }: { connectionId: string; watches: WatchedDataPoint[]; canEdit: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const busy = useRef(false);
  const run = (work: () => Promise<void>) => {
    if (busy.current) return;
    busy.current = true;
    startTransition(async () => {
      try {
        await work();
      } finally {
        busy.current = false;
        router.refresh();
      }
    });
  };
  const refresh = () =>
    run(async () => {
      const result = await callAction(() => refreshWatchesAction({ connectionId }));
      if (!result.ok) toast.error(result.error);
      else if (result.failed > 0) toast.warning(`Refreshed ${result.refreshed}; ${result.failed} could not be fetched.`);
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
          {canEdit ? "Look a data point up and add it to the watch list to see it here." : "An administrator can add data points to this list."}
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
              {canEdit ? <Th>
                <span className="sr-only">Actions</span>
              </Th> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {watches.map((w) => (
              <tr key={w.dataPointId} data-testid={`watch-${w.dataPointId}`}>
                <Td>
                  <Link className="text-indigo-700 underline" href={`/data-points?id=${encodeURIComponent(w.dataPointId)}`}>
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
                    <Button size="sm" variant="ghost" disabled={pending} onClick={() => remove(w.dataPointId)} aria-label={`Stop watching ${w.dataPointId}`}>
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
