"use client";

import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";

import { dayTickUtc, formatCount, formatDayUtc, formatHourUtc } from "@/lib/overview/format";
import { delayBucketHref, expiredHourHref, rejectionsDayHref } from "@/lib/overview/links";
import { seriesColour, seriesLabel, type SeriesKind } from "@/lib/overview/series";
import type { DelayHistogram, ExpiredPerHour, RejectionsPerDay } from "@/lib/overview/types";
import type { DelayBucket } from "@/lib/webhooks/constants";

import { CHART_HEIGHT_PX } from "./chart-size";

/**
 * The overview's charts (recharts, loaded in the browser only: ./lazy-charts), in the theme's CSS variables. A click
 * on a bar opens the log filtered to it; by keyboard, ← → move through the bars (recharts' accessibility layer), and
 * the table under each chart holds the same numbers and links.
 */

type Row = { key: string; values: Record<string, number> };
type Series = { key: string; label: string; colour: string };

const axis = { fill: "var(--chart-axis)", fontSize: 12 };

/** An axis label in two lines ("Thu" over "19", "10–60" over "min"), so every slot keeps its label on a phone. */
function TwoLineTick({
  x,
  y,
  payload,
  lines,
}: {
  x?: number | string;
  y?: number | string;
  payload?: { value: string };
  lines: (key: string) => [string, string];
}) {
  const [first, second] = lines(String(payload?.value ?? ""));
  return (
    <text x={x} y={y} textAnchor="middle" fill={axis.fill} fontSize={axis.fontSize}>
      <tspan x={x} dy="0.9em">
        {first}
      </tspan>
      <tspan x={x} dy="1.2em">
        {second}
      </tspan>
    </text>
  );
}

/** "10–60 min" → ["10–60", "min"]. */
const splitLast = (text: string): [string, string] => {
  const at = text.lastIndexOf(" ");
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
};

function StackedBars({
  label,
  rows,
  series,
  ticks,
  tickLines,
  slotLabel,
  hrefOf,
  barColour,
}: {
  label: string;
  rows: Row[];
  series: Series[];
  /** The slots that carry a label (all when absent). */
  ticks?: string[];
  tickLines: (key: string) => [string, string];
  slotLabel: (key: string) => string;
  hrefOf: (row: Row, series: string) => string;
  /** A colour per bar instead of the series' (one series only). */
  barColour?: (row: Row) => string;
}) {
  const router = useRouter();
  const data = rows.map((row) => ({ key: row.key, ...row.values }));
  return (
    <BarChart
      data={data}
      responsive
      style={{ width: "100%", height: CHART_HEIGHT_PX }}
      margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      title={label}
      className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
    >
      <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
      <XAxis
        dataKey="key"
        ticks={ticks}
        interval={0}
        height={40}
        tick={(props: { x?: number | string; y?: number | string; payload?: { value: string } }) => (
          <TwoLineTick {...props} lines={tickLines} />
        )}
        tickLine={false}
        axisLine={{ stroke: "var(--chart-grid)" }}
      />
      <YAxis allowDecimals={false} tick={axis} tickLine={false} axisLine={false} width={44} />
      <Tooltip
        cursor={{ fill: "var(--chart-grid)", fillOpacity: 0.5 }}
        content={(props) => <ChartTooltip {...props} slotLabel={slotLabel} series={series} />}
      />
      {series.map((s) => (
        <Bar
          key={s.key}
          dataKey={s.key}
          name={s.label}
          stackId="slot"
          fill={s.colour}
          isAnimationActive={false}
          style={{ cursor: "pointer" }}
          onClick={(_, index) => {
            const row = rows[index];
            if (row) router.push(hrefOf(row, s.key));
          }}
        >
          {barColour ? rows.map((row) => <Cell key={row.key} fill={barColour(row)} />) : null}
        </Bar>
      ))}
    </BarChart>
  );
}

function ChartTooltip({
  active,
  payload,
  label,
  slotLabel,
  series,
}: TooltipContentProps & { slotLabel: (key: string) => string; series: Series[] }) {
  if (!active || !payload?.length) return null;
  const values = payload[0]?.payload as Record<string, number> | undefined;
  const shown = series.filter((s) => (values?.[s.key] ?? 0) > 0);
  return (
    <div className="rounded-md bg-white px-3 py-2 text-xs text-slate-900 shadow-md ring-1 ring-slate-200 dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-700">
      <p className="font-semibold">{slotLabel(String(label))}</p>
      {shown.length === 0 ? <p className="text-slate-600 dark:text-slate-300">none</p> : null}
      <ul>
        {shown.map((s) => (
          <li key={s.key} className="flex items-center gap-2">
            <span aria-hidden="true" className="inline-block size-2.5 rounded-sm" style={{ background: s.colour }} />
            {s.label}: <span className="tabular-nums">{formatCount(values?.[s.key] ?? 0)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-1 text-slate-600 dark:text-slate-300">Click a bar to open it in the log.</p>
    </div>
  );
}

const seriesOf = (kind: SeriesKind, keys: string[]): Series[] =>
  keys.map((key) => ({ key, label: seriesLabel(kind, key), colour: seriesColour(kind, key) }));

export function ExpiredPerHourChart({ data }: { data: ExpiredPerHour }) {
  return (
    <StackedBars
      label="authenticator.expired events per hour over the last 7 days, by verification method"
      rows={data.hours.map((h) => ({ key: h.hour, values: h.bySeries }))}
      series={seriesOf("method", data.series)}
      ticks={data.hours.filter((h) => h.hour.endsWith("T00:00:00.000Z")).map((h) => h.hour)}
      tickLines={dayTickUtc}
      slotLabel={formatHourUtc}
      hrefOf={(row, series) => expiredHourHref(row.key, series)}
    />
  );
}

/** One series, each bar its own colour: the late bucket in the warning colour (--chart-late, set by the section). */
export function DelayHistogramChart({ data }: { data: DelayHistogram }) {
  const late = new Set<string>(data.buckets.filter((b) => b.late).map((b) => b.key));
  return (
    <StackedBars
      label="Delivery delay of the last 7 days' authenticator.expired events"
      rows={data.buckets.map((b) => ({ key: b.key, values: { count: b.count } }))}
      series={[{ key: "count", label: "Events", colour: "var(--chart-1)" }]}
      tickLines={(key) => splitLast(data.buckets.find((b) => b.key === key)?.label ?? key)}
      slotLabel={(key) => `Delivered ${data.buckets.find((b) => b.key === key)?.label ?? key} after the expiry`}
      hrefOf={(row) => delayBucketHref(row.key as DelayBucket)}
      barColour={(row) => (late.has(row.key) ? "var(--chart-late)" : "var(--chart-1)")}
    />
  );
}

export function RejectionsPerDayChart({ data }: { data: RejectionsPerDay }) {
  return (
    <StackedBars
      label="Refused webhook deliveries per day over the last 7 days, by reason"
      rows={data.days.map((d) => ({ key: d.day, values: d.bySeries }))}
      series={seriesOf("reason", data.series)}
      tickLines={dayTickUtc}
      slotLabel={(key) => `${formatDayUtc(key)} (UTC)`}
      hrefOf={(row, series) => rejectionsDayHref(row.key, series)}
    />
  );
}
