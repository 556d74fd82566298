"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Alert, Skeleton } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { ExactTime } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { callAction } from "@/lib/call-action";
import { resendEventAction } from "@/lib/destinations/actions";
import { BREAKER_WORDS } from "@/lib/destinations/constants";
import type { EventForwards as Forwards } from "@/lib/destinations/types";

import { ProbeWhen } from "./probe-when";

const WHILE_WAITING_MS = 3000;

const deliveryBadges: Record<Forwards["deliveries"][number]["state"], { tone: BadgeTone; label: string }> = {
  pending: { tone: "warning", label: "Waiting" },
  delivered: { tone: "success", label: "Delivered" },
  failed: { tone: "danger", label: "Failed" },
  cancelled: { tone: "neutral", label: "Cancelled" },
};

async function fetchForwards(id: number): Promise<Forwards[]> {
  const response = await fetch(`/api/webhook-events/${id}/forwards`, { headers: { Accept: "application/json" } });
  const body = (await response.json().catch(() => ({}))) as { destinations?: Forwards[]; errorDescription?: string };
  if (!response.ok || !body.destinations) throw new Error(body.errorDescription ?? `HTTP ${response.status}`);
  return body.destinations;
}

/**
 * An event's forwards in its drawer: each destination of its connection, the event's deliveries to it
 * and their attempts (time, status, latency, what happened, and for admins the start of the answer),
 * refreshed while one waits; admins may send it again.
 */
export function EventForwards({
  id,
  connectionId,
  eventId,
  canResend,
}: {
  id: number;
  connectionId: string;
  eventId: string;
  /** False for support: the forwards are read-only. */
  canResend: boolean;
}) {
  const queryClient = useQueryClient();
  const [sending, setSending] = useState<string | null>(null);
  const query = useQuery({
    queryKey: ["event-forwards", id],
    queryFn: () => fetchForwards(id),
    refetchInterval: (q) =>
      q.state.data?.some((d) => d.deliveries.some((x) => x.state === "pending")) ? WHILE_WAITING_MS : false,
  });
  const resend = async (destinationId: string, name: string) => {
    if (!canResend || sending) return;
    setSending(destinationId);
    try {
      const result = await callAction(() => resendEventAction({ connectionId, destinationId, eventId }));
      if (result.ok) toast.success(`Sending it to ${name} again.`);
      else toast.error(result.error);
      await queryClient.invalidateQueries({ queryKey: ["event-forwards", id] });
    } finally {
      setSending(null);
    }
  };

  return (
    <section aria-labelledby="event-forwards" className="space-y-3" data-testid="event-forwards">
      <h3 id="event-forwards" className="text-sm font-semibold">
        Forwards
      </h3>
      {query.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : query.isError ? (
        <Alert tone="danger" title="The forwards could not be loaded">
          {query.error.message}
        </Alert>
      ) : query.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          This connection forwards to no destination (add one on the Destinations page).
        </p>
      ) : (
        query.data.map((destination) => (
          <div
            key={destination.destinationId}
            className="space-y-2 rounded-md p-3 ring-1 ring-slate-200 dark:ring-slate-800"
            data-testid={`forwards-${destination.destinationName}`}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm font-medium">
                <Link href={`/destinations/${destination.destinationId}`} className="hover:underline">
                  {destination.destinationName}
                </Link>{" "}
                {destination.deliveries[0] ? (
                  <Badge tone={deliveryBadges[destination.deliveries[0].state].tone}>
                    {deliveryBadges[destination.deliveries[0].state].label}
                  </Badge>
                ) : (
                  <Badge>Not forwarded</Badge>
                )}{" "}
                {destination.tripped ? <Badge tone="warning">{BREAKER_WORDS}</Badge> : null}
              </p>
              {canResend ? (
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={!destination.enabled || sending !== null}
                  onClick={() => resend(destination.destinationId, destination.destinationName)}
                >
                  {sending === destination.destinationId ? "Sending…" : "Resend"}
                </Button>
              ) : null}
            </div>
            {destination.tripped ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                After a run of failed attempts the console sends this destination one delivery at a time (
                <ProbeWhen probeAt={destination.tripped.probeAt} />
                ).
              </p>
            ) : null}
            {destination.deliveries.flatMap((delivery) => delivery.attempts).length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                {destination.deliveries.length > 0 ? "No attempt yet." : (destination.notForwarded ?? "Nothing sent.")}
              </p>
            ) : (
              <ol className="space-y-2 text-sm">
                {destination.deliveries.flatMap((delivery) =>
                  delivery.attempts.map((attempt, index) => (
                    <li
                      key={`${delivery.id}-${index}`}
                      className="border-l-2 border-slate-200 pl-3 dark:border-slate-700"
                    >
                      <p className="flex flex-wrap gap-x-3">
                        <ExactTime iso={attempt.startedAt} />
                        <span
                          className={
                            attempt.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"
                          }
                        >
                          {attempt.status ?? "no answer"}
                        </span>
                        <span>{attempt.latencyMs} ms</span>
                        {delivery.origin !== "receipt" ? (
                          <span className="text-slate-600 dark:text-slate-400">{delivery.origin}</span>
                        ) : null}
                      </p>
                      <p className="text-slate-700 dark:text-slate-300">{attempt.outcome}</p>
                      {attempt.responseBody ? (
                        <pre className="mt-1 max-h-32 overflow-auto rounded bg-slate-100 p-2 text-xs break-all whitespace-pre-wrap dark:bg-slate-800">
                          {attempt.responseBody}
                        </pre>
                      ) : null}
                    </li>
                  )),
                )}
              </ol>
            )}
          </div>
        ))
      )}
    </section>
  );
}
