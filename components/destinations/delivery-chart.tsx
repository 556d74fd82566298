"use client";

import { Bar, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";

import { CHART_HEIGHT_PX } from "@/components/overview/chart-size";
import type { DeliveryStats } from "@/lib/destinations/types";

import { DELIVERY_SERIES, slotName, slotTick } from "./delivery-series";

/**
 * A destination's attempts per slot (delivered and failed, stacked) and their p95 latency (a line on the right
 * axis), in recharts, loaded in the browser only (./lazy-delivery-chart); the table beside it holds the same numbers.
 */
export function DeliveryChart({ stats }: { stats: DeliveryStats }) {
  const data = stats.slots.map((slot) => ({
    key: slot.start,
    delivered: slot.delivered,
    failed: slot.attempts - slot.delivered,
    p95: slot.p95LatencyMs,
  }));
  const axis = { fill: "var(--chart-axis)", fontSize: 12 };
  return (
    <ComposedChart
      data={data}
      responsive
      style={{ width: "100%", height: CHART_HEIGHT_PX }}
      margin={{ top: 8, right: 0, bottom: 0, left: 0 }}
      title={`Attempts and p95 latency, ${stats.window === "24h" ? "per hour over 24 h" : "per day over 7 days"}`}
    >
      <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
      <XAxis
        dataKey="key"
        tickFormatter={(key: string) => slotTick(stats.window, key)}
        interval={stats.window === "24h" ? 5 : 0}
        tick={axis}
        tickLine={false}
        axisLine={{ stroke: "var(--chart-grid)" }}
      />
      <YAxis yAxisId="count" allowDecimals={false} tick={axis} tickLine={false} axisLine={false} width={36} />
      <YAxis yAxisId="ms" orientation="right" tick={axis} tickLine={false} axisLine={false} width={48} unit=" ms" />
      <Tooltip
        cursor={{ fill: "var(--chart-grid)", fillOpacity: 0.5 }}
        content={(props) => <SlotTooltip {...props} window={stats.window} />}
      />
      <Bar
        yAxisId="count"
        dataKey="delivered"
        stackId="a"
        fill={DELIVERY_SERIES.delivered.colour}
        isAnimationActive={false}
      />
      <Bar
        yAxisId="count"
        dataKey="failed"
        stackId="a"
        fill={DELIVERY_SERIES.failed.colour}
        isAnimationActive={false}
      />
      <Line
        yAxisId="ms"
        dataKey="p95"
        stroke={DELIVERY_SERIES.p95.colour}
        strokeWidth={2}
        dot={{ r: 3, fill: DELIVERY_SERIES.p95.colour }}
        connectNulls
        isAnimationActive={false}
      />
    </ComposedChart>
  );
}

function SlotTooltip({ active, payload, label, window }: TooltipContentProps & { window: DeliveryStats["window"] }) {
  if (!active || !payload?.length) return null;
  const values = payload[0]?.payload as { delivered: number; failed: number; p95: number | null } | undefined;
  return (
    <div className="rounded-md bg-white px-3 py-2 text-xs text-slate-900 shadow-md ring-1 ring-slate-200 dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-700">
      <p className="font-semibold">{slotName(window, String(label))}</p>
      <p>
        {DELIVERY_SERIES.delivered.label}: {values?.delivered ?? 0}
      </p>
      <p>
        {DELIVERY_SERIES.failed.label}: {values?.failed ?? 0}
      </p>
      <p>
        {DELIVERY_SERIES.p95.label}: {values?.p95 == null ? "—" : `${values.p95} ms`}
      </p>
    </div>
  );
}
