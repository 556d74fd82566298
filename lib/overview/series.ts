/**
 * The charts' series: each known verification method and rejection reason keeps its colour on every
 * load and in both charts' legends (its place in the known list picks --chart-N); anything else is
 * folded into one OTHER_SERIES. Client-safe.
 */
import { KNOWN_METHODS } from "@/lib/webhooks/constants";
import { REJECTION_REASON_VALUES, rejectionReasonText } from "@/lib/webhooks/types";

import { OTHER_SERIES } from "./types";

export type SeriesKind = "method" | "reason";

const KNOWN: Record<SeriesKind, readonly string[]> = { method: KNOWN_METHODS, reason: REJECTION_REASON_VALUES };

/** The series a stored value is counted in: itself when known, else OTHER_SERIES (a null method too). */
export function seriesOf(kind: SeriesKind, value: string | null): string {
  return value !== null && KNOWN[kind].includes(value) ? value : OTHER_SERIES;
}

/** The series present, in colour order. */
export function orderSeries(kind: SeriesKind, present: Iterable<string>): string[] {
  const seen = new Set(present);
  return [...KNOWN[kind], OTHER_SERIES].filter((s) => seen.has(s));
}

/** A CSS colour that follows the theme (app/globals.css defines --chart-1..8 for light and dark). */
export function seriesColour(kind: SeriesKind, series: string): string {
  const index = KNOWN[kind].indexOf(series);
  return index >= 0 && index < 8 ? `var(--chart-${index + 1})` : "var(--chart-other)";
}

export function seriesLabel(kind: SeriesKind, series: string): string {
  if (series === OTHER_SERIES) return kind === "method" ? "Other methods" : "Other reasons";
  return kind === "method" ? series : rejectionReasonText(series).label;
}
