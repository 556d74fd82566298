import type { DeliveryStats } from "@/lib/destinations/types";
import { dayTickUtc, formatDayUtc, formatHourUtc } from "@/lib/overview/format";

/** The delivery chart's series, in the theme's chart colours (app/globals.css), shared by the chart and its legend. */
export const DELIVERY_SERIES = {
  delivered: { label: "Delivered", colour: "var(--chart-2)" },
  failed: { label: "Failed", colour: "var(--chart-5)" },
  p95: { label: "p95 latency", colour: "var(--chart-1)" },
} as const;

/** A slot's name in the table and the tooltip: "Mon 2 Jun, 14:00–15:00 UTC" or "Mon 2 Jun". */
export const slotName = (window: DeliveryStats["window"], start: string) =>
  window === "24h" ? formatHourUtc(start) : formatDayUtc(start);

/** A slot's axis label, short enough for a phone: "14:00" or "Mon" (the table has the dates). */
export const slotTick = (window: DeliveryStats["window"], start: string) =>
  window === "24h" ? start.slice(11, 16) : dayTickUtc(start)[0];
