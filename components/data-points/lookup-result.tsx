import { Alert, Card, Skeleton } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Link } from "@/components/ui/link";
import type { ConnectionChoice } from "@/lib/connections/types";
import { dataPointFieldLabels as labels } from "@/lib/data-points/labels";
import type { DataPointLookup } from "@/lib/data-points/types";
import { formatYesNo } from "@/lib/field-labels";

import { DataTypeBadge, ModelTypeBadge } from "./badges";
import { WatchDataPointButton } from "./watch-button";

const fieldRows = "mt-4 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-2 text-sm";
const fieldCount = Object.keys(labels).length;
// Every state of the result (skeleton, card, a failure's alert) takes at least the skeleton's height,
// so the watch list below stays where it is when the service answers, however it answers.
const resultHeight = "min-h-[16.5rem]";

/** One data point as the service reports it, or why it could not be read; streams in when the service answers. */
export async function DataPointLookupResult({
  lookup: pending,
  id,
  connection,
  canWatch,
  watched,
}: {
  lookup: Promise<DataPointLookup>;
  id: string;
  connection: ConnectionChoice;
  canWatch: boolean;
  watched: boolean;
}) {
  const lookup = await pending;
  if (lookup.kind === "failure") {
    return (
      <div aria-live="polite" className={resultHeight}>
        <Alert
          tone={lookup.failure === "not_found" ? "warning" : "danger"}
          title={lookup.failure === "not_found" ? "Not found" : "Lookup failed"}
        >
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
    <Card className={resultHeight}>
      <div aria-live="polite" className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold" data-testid="data-point-name">
            {dp.name}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {dp.description || <span className="text-slate-500 dark:text-slate-400">No description</span>}
          </p>
        </div>
        {canWatch ? <WatchDataPointButton connectionId={connection.id} dataPointId={id} watched={watched} /> : null}
      </div>
      <dl className={cn(fieldRows, "[&>dd]:wrap-anywhere [&>dt]:text-slate-500 dark:[&>dt]:text-slate-400")}>
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

/** The found card's shape while the service is asked: name, description, the watch button if any, one row per field. */
export function DataPointLookupResultSkeleton({ canWatch }: { canWatch: boolean }) {
  return (
    <Card className={resultHeight}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <Skeleton className="h-7 w-48" />
          <Skeleton className="h-5 w-72 max-w-full" />
        </div>
        {canWatch ? <Skeleton className="h-9 w-40" /> : null}
      </div>
      <div className={fieldRows}>
        {Array.from({ length: fieldCount }, (_, i) => (
          <div key={i} className="contents">
            <Skeleton className="h-5 w-24" />
            <Skeleton className="h-5 w-48 max-w-full" />
          </div>
        ))}
      </div>
    </Card>
  );
}
