/**
 * A connection's health in one word, from its alerts (the one rule: the alert conditions and their thresholds),
 * and the facts of its last 24 h in neutral words. Client-safe and pure: the card and the headline count share it.
 */
import type { ConnectionHealth } from "./types";

/**
 * What the alerts say of one connection, handed in by the page (lib/overview does not read alerts): its open alerts
 * that still need someone, and those someone acknowledged. Null: the alerts could not be read.
 */
export type ConnectionAlertCounts = { open: number; acknowledged: number } | null;

export type HealthVerdict = {
  label: "Needs attention" | "Acknowledged" | "Healthy" | "Quiet" | "No events yet";
  tone: "danger" | "info" | "success" | "neutral";
  /** One sentence on what the label means for this connection. */
  summary: string;
};

const alertWord = (n: number) => (n === 1 ? "1 open alert" : `${n} open alerts`);

export function healthVerdict(health: ConnectionHealth, alerts: ConnectionAlertCounts): HealthVerdict {
  if (alerts && alerts.open > 0)
    return { label: "Needs attention", tone: "danger", summary: `${alertWord(alerts.open)}: see what to do below.` };
  if (alerts && alerts.acknowledged > 0)
    return {
      label: "Acknowledged",
      tone: "info",
      summary: `${alertWord(alerts.acknowledged)}, acknowledged: someone is on it.`,
    };
  // Without the alerts nothing is judged: the facts alone, in a neutral tone.
  const unknown = alerts === null ? " The alerts could not be read just now." : "";
  if (health.events24h > 0)
    return alerts === null
      ? { label: "Quiet", tone: "neutral", summary: `Events arrive.${unknown}` }
      : { label: "Healthy", tone: "success", summary: "Events arrive and no alert is open." };
  if (health.lastEventAt)
    return {
      label: "Quiet",
      tone: "neutral",
      summary: `No events in the last 24 h: nothing expired, or the service stopped sending.${unknown}`,
    };
  return {
    label: "No events yet",
    tone: "neutral",
    summary: `No event has arrived yet: the tenant's webhook settings must point at this connection's URL.${unknown}`,
  };
}

/** Whether the connection needs someone now (the headline counts these): an open alert nobody acknowledged. */
export function needsAttention(alerts: ConnectionAlertCounts): boolean {
  return alerts !== null && alerts.open > 0;
}

/** A fact of the last 24 h the card states in neutral words, whatever the alerts say. */
export type HealthFact = { kind: "bad_signature" | "unsigned"; count: number; lastAt: string | null };

/** Refusals for a bad signature, then events stored unsigned: the facts that bear on whether events are trusted. */
export function healthFacts(health: ConnectionHealth): HealthFact[] {
  const facts: HealthFact[] = [];
  if (health.badSignature24h > 0)
    facts.push({ kind: "bad_signature", count: health.badSignature24h, lastAt: health.lastBadSignatureAt });
  if (health.unsigned24h > 0)
    facts.push({ kind: "unsigned", count: health.unsigned24h, lastAt: health.lastUnsignedAt });
  return facts;
}
