/**
 * A connection's health in one word and the warnings that explain it, from its 24 h numbers.
 * Client-safe and pure: the card and the headline count read the same verdict.
 */
import type { ConnectionHealth } from "./types";

export type HealthWarning = "unsigned" | "bad_signature";

export type HealthVerdict = {
  label: "Healthy" | "Needs attention" | "Some refused" | "Quiet" | "No events yet";
  tone: "success" | "warning" | "danger" | "neutral";
  /** In the order the card shows them: what stops events from being trusted or stored first. */
  warnings: HealthWarning[];
  /** One sentence on what the label means for this connection. */
  summary: string;
};

export function healthVerdict(health: ConnectionHealth): HealthVerdict {
  const warnings: HealthWarning[] = [];
  if (health.badSignature24h > 0) warnings.push("bad_signature");
  if (health.unsigned24h > 0) warnings.push("unsigned");
  if (warnings.length > 0) {
    return {
      label: "Needs attention",
      tone: "danger",
      warnings,
      summary: "Webhooks are refused or stored unverified: see below.",
    };
  }
  if (health.rejections24h > 0) {
    return {
      label: "Some refused",
      tone: "warning",
      warnings,
      summary: "Some deliveries in the last 24 h were refused: see why below.",
    };
  }
  if (health.events24h > 0)
    return {
      label: "Healthy",
      tone: "success",
      warnings,
      summary: "Verified events arrive and nothing was refused in the last 24 h.",
    };
  if (health.lastEventAt)
    return {
      label: "Quiet",
      tone: "neutral",
      warnings,
      summary: "No events in the last 24 h: nothing expired, or the service stopped sending.",
    };
  return {
    label: "No events yet",
    tone: "neutral",
    warnings,
    summary: "No event has arrived yet: the tenant's webhook settings must point at this connection's URL.",
  };
}

/** Whether the verdict asks someone to act (the headline counts these). */
export function needsAttention(verdict: HealthVerdict): boolean {
  return verdict.tone === "danger" || verdict.tone === "warning";
}
