import "server-only";

import type { AlertThresholdsRow } from "@/lib/db/alerts-schema";
import { env } from "@/lib/env";

import { THRESHOLD_NAMES, THRESHOLDS, type ThresholdName } from "./constants";
import type { ConnectionThresholds } from "./types";

/** A threshold's default: the constant, but for silence, CONSOLE_ALERT_SILENCE_HOURS. */
export function defaultThreshold(name: ThresholdName): number {
  return name === "silenceHours" ? env().CONSOLE_ALERT_SILENCE_HOURS : THRESHOLDS[name].default;
}

/** Every threshold's default. */
export function thresholdDefaults(): Record<ThresholdName, number> {
  return Object.fromEntries(THRESHOLD_NAMES.map((name) => [name, defaultThreshold(name)])) as Record<
    ThresholdName,
    number
  >;
}

/** A connection's thresholds from its row (none: every default). */
export function thresholdsFor(connectionId: string, row: AlertThresholdsRow | undefined): ConnectionThresholds {
  const defaults = thresholdDefaults();
  const set = Object.fromEntries(THRESHOLD_NAMES.map((name) => [name, row?.[name] ?? null])) as Record<
    ThresholdName,
    number | null
  >;
  const values = Object.fromEntries(THRESHOLD_NAMES.map((name) => [name, set[name] ?? defaults[name]])) as Record<
    ThresholdName,
    number
  >;
  return { connectionId, values, set, defaults };
}
