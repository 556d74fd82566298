import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { Link } from "@/components/ui/link";
import { CardField, CardsOrTable, RowCard, Td } from "@/components/ui/table";
import { ExactTime, Time } from "@/components/ui/time";
import type { AttemptOutcome } from "@/lib/destinations/constants";
import type { DestinationAttempt, DestinationAttemptPage } from "@/lib/destinations/types";
import { isTestEventId, TEST_EVENT_ID_PREFIX } from "@/lib/webhooks/constants";

import { ATTEMPT_COLUMNS } from "./loading-shapes";

const ORIGINS: Record<string, string> = {
  receipt: "Receipt",
  resend: "Resend",
  replay: "Replay",
  test: "Test event",
};

const FILTERS: Array<{ outcome: AttemptOutcome | undefined; label: string }> = [
  { outcome: undefined, label: "All" },
  { outcome: "delivered", label: "Delivered" },
  { outcome: "failed", label: "Failed" },
];

const hrefOf = (base: string, query: Record<string, string | undefined>) => {
  const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => !!entry[1]));
  const search = params.toString();
  return search ? `${base}?${search}` : base;
};

/**
 * A destination's attempts, newest first, a page at a time (older ones behind "Older attempts"), filtered
 * by outcome; each names its event, linked to the event's drawer in the log while the log still holds it.
 */
export function AttemptList({
  base,
  connectionId,
  page,
  outcome,
  paged,
}: {
  /** The destination page's path. */
  base: string;
  connectionId: string;
  page: DestinationAttemptPage;
  outcome: AttemptOutcome | undefined;
  /** Whether this is an older page (a link back to the newest is offered). */
  paged: boolean;
}) {
  const eventLink = (attempt: DestinationAttempt) =>
    attempt.eventRowId === null ? (
      <span className="font-mono text-xs" title={attempt.eventId}>
        {shortId(attempt.eventId)}
      </span>
    ) : (
      <Link
        href={`/webhooks?connectionId=${connectionId}&event=${attempt.eventRowId}`}
        className="font-mono text-xs text-indigo-700 underline dark:text-indigo-300"
        title={attempt.eventId}
      >
        {shortId(attempt.eventId)}
      </Link>
    );
  return (
    <section aria-labelledby="attempts-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="attempts-heading" className="text-base font-semibold">
          Attempts
        </h2>
        <nav aria-label="Attempts by outcome" className="flex gap-1 rounded-md bg-slate-100 p-1 dark:bg-slate-800">
          {FILTERS.map((filter) => (
            <Link
              key={filter.label}
              href={hrefOf(base, { outcome: filter.outcome })}
              aria-current={filter.outcome === outcome ? "page" : undefined}
              className={cn(
                "rounded px-3 py-1 text-sm font-medium text-slate-700 dark:text-slate-200",
                filter.outcome === outcome
                  ? "bg-white shadow-sm dark:bg-slate-950"
                  : "hover:bg-white/60 dark:hover:bg-slate-900/60",
              )}
            >
              {filter.label}
            </Link>
          ))}
        </nav>
      </div>
      {page.attempts.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600 dark:border-slate-600 dark:text-slate-300">
          {outcome === undefined
            ? "No attempt yet: events it takes are listed here once they are sent, and so is a test event."
            : `No ${outcome} attempt${paged ? " on this page" : ""}.`}
        </p>
      ) : (
        <CardsOrTable
          label="Attempts, newest first"
          columns={ATTEMPT_COLUMNS}
          cards={page.attempts.map((attempt) => (
            <RowCard
              key={attempt.id}
              testId="attempt"
              title={<OutcomeBadge attempt={attempt} />}
              subtitle={<ExactTime iso={attempt.startedAt} />}
              action={null}
            >
              <CardField term="Status">{attempt.status ?? "No answer"}</CardField>
              <CardField term="Duration">{attempt.latencyMs} ms</CardField>
              <CardField term="Event">{eventLink(attempt)}</CardField>
              <CardField term="Sent by">{ORIGINS[attempt.origin] ?? attempt.origin}</CardField>
              <CardField term="Outcome" className="break-words">
                {attempt.outcome}
              </CardField>
            </RowCard>
          ))}
          rows={page.attempts.map((attempt) => (
            <tr key={attempt.id} data-testid="attempt-row">
              <Td>
                <Time iso={attempt.startedAt} />
              </Td>
              <Td className="max-w-md whitespace-normal">
                <OutcomeBadge attempt={attempt} />{" "}
                <span className="text-slate-600 dark:text-slate-400">{attempt.outcome}</span>
              </Td>
              <Td>{attempt.status ?? "No answer"}</Td>
              <Td>{attempt.latencyMs} ms</Td>
              <Td>{eventLink(attempt)}</Td>
              <Td>{ORIGINS[attempt.origin] ?? attempt.origin}</Td>
            </tr>
          ))}
        />
      )}
      {paged || page.nextBefore ? (
        <nav aria-label="Attempt pages" className="flex justify-between text-sm font-medium">
          {paged ? (
            <Link href={hrefOf(base, { outcome })} className="text-indigo-700 underline dark:text-indigo-300">
              ← Newest attempts
            </Link>
          ) : (
            <span />
          )}
          {page.nextBefore ? (
            <Link
              href={hrefOf(base, { outcome, before: page.nextBefore })}
              className="text-indigo-700 underline dark:text-indigo-300"
            >
              Older attempts →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

function OutcomeBadge({ attempt }: { attempt: DestinationAttempt }) {
  return <Badge tone={attempt.ok ? "success" : "danger"}>{attempt.ok ? "Delivered" : "Failed"}</Badge>;
}

/** An event id short enough for a column: a UUID's first block (a test id's after "test-"); the whole id is its title. */
const shortId = (eventId: string) => {
  const id = isTestEventId(eventId) ? eventId.slice(TEST_EVENT_ID_PREFIX.length) : eventId;
  const short = id.length > 12 ? `${id.slice(0, 8)}…` : id;
  return isTestEventId(eventId) ? `test-${short}` : short;
};
