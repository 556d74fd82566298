import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { DestinationForward, EventForwarding } from "@/lib/webhooks/types";

const TEXT: Record<DestinationForward["state"], { label: string; tone: BadgeTone }> = {
  delivered: { label: "Delivered", tone: "success" },
  waiting: { label: "Waiting", tone: "info" },
  failing: { label: "Failing", tone: "danger" },
  cancelled: { label: "Cancelled", tone: "neutral" },
};

const attempts = (n: number) => (n === 1 ? "1 attempt" : `${n} attempts`);

/** Each destination's forward in words: "Archive: failing (3 attempts)". */
export function describeForwards(forwarding: EventForwarding): string {
  if (forwarding.destinations.length === 0) return "Not forwarded: no destination took this event.";
  return forwarding.destinations
    .map((d) => `${d.destinationName}: ${TEXT[d.state].label.toLowerCase()} (${attempts(d.attempts)})`)
    .join("; ");
}

/** Where a row's forwards stand, each destination's in the title (the drawer lists them in full). */
export function ForwardingBadge({ forwarding }: { forwarding: EventForwarding }) {
  const title = describeForwards(forwarding);
  if (!forwarding.outcome)
    return (
      <span title={title} className="text-slate-600 dark:text-slate-300">
        <span aria-hidden="true">—</span>
        <span className="sr-only">Not forwarded</span>
      </span>
    );
  const { label, tone } = TEXT[forwarding.outcome];
  const count = forwarding.destinations.length;
  return (
    <Badge tone={tone} title={title}>
      {label}
      {count > 1 ? <span className="ml-1 font-normal">· {count}</span> : null}
      <span className="sr-only">, {title}</span>
    </Badge>
  );
}
