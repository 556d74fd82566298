import type { BadgeTone } from "@/components/ui/badge";
import type { AlertSummary, NoticeSummary } from "@/lib/alerts/types";

/** An alert's state and its notices in words, for the Alerts page. Client-safe. */

export type AlertDisplayState = "open" | "acknowledged" | "muted" | "resolved";

/** What the reader most needs to know: resolved, else muted (while the mute lasts), else acknowledged, else open. */
export function displayState(
  alert: Pick<AlertSummary, "state" | "mutedUntil" | "acknowledgedAt">,
  now: number,
): AlertDisplayState {
  if (alert.state === "resolved") return "resolved";
  if (isMuted(alert, now)) return "muted";
  return alert.acknowledgedAt ? "acknowledged" : "open";
}

export const isMuted = (alert: Pick<AlertSummary, "mutedUntil">, now: number) =>
  alert.mutedUntil !== null && Date.parse(alert.mutedUntil) > now;

export const STATE_BADGES: Record<AlertDisplayState, { tone: BadgeTone; label: string }> = {
  open: { tone: "danger", label: "Open" },
  acknowledged: { tone: "info", label: "Acknowledged" },
  muted: { tone: "neutral", label: "Muted" },
  resolved: { tone: "success", label: "Resolved" },
};

/** A mute's length as the menu offers it: "1 h", "4 h", "1 day", "1 week". */
export function muteLabel(hours: number): string {
  if (hours % 168 === 0) return hours === 168 ? "1 week" : `${hours / 168} weeks`;
  if (hours % 24 === 0) return hours === 24 ? "1 day" : `${hours / 24} days`;
  return `${hours} h`;
}

/** How the notices fared in a few words ("2 sent · 1 retrying"), and the last problem while one retries or failed. */
export function noticesText(n: NoticeSummary): { text: string; problem: string | null } {
  const parts = [
    n.sent > 0 ? `${n.sent} sent` : "",
    n.pending > 0 ? `${n.pending} ${n.problem ? "retrying" : "waiting"}` : "",
    n.failed > 0 ? `${n.failed} failed` : "",
  ];
  const text = parts.filter(Boolean).join(" · ") || "none";
  return { text, problem: n.pending > 0 || n.failed > 0 ? n.problem : null };
}
