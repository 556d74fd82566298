import { Table, TableHead, Td } from "@/components/ui/table";
import { formatCount, formatDayUtc, formatHourUtc } from "@/lib/overview/format";
import { delayBucketHref, expiredHourHref, rejectionsDayHref } from "@/lib/overview/links";
import { seriesColour, seriesLabel, type SeriesKind } from "@/lib/overview/series";
import type { DelayHistogram, ExpiredPerHour, RejectionsPerDay } from "@/lib/overview/types";

import { ChartCard, CountLink, type LegendItem } from "./chart-card";
import { DelayHistogramChart, ExpiredPerHourChart, RejectionsPerDayChart } from "./lazy-charts";

const legendOf = (kind: SeriesKind, series: string[]): LegendItem[] =>
  series.map((s) => ({ label: seriesLabel(kind, s), colour: seriesColour(kind, s) }));

/**
 * Slots × series as a table, newest first, only the slots with a count (the chart shows the empty
 * ones): every count links to the log rows it counts, as the chart's bars do.
 */
function SeriesTable({
  caption,
  slotColumn,
  kind,
  series,
  slots,
  slotLabel,
  hrefOf,
}: {
  caption: string;
  slotColumn: string;
  kind: SeriesKind;
  series: string[];
  slots: Array<{ key: string; total: number; bySeries: Record<string, number> }>;
  slotLabel: (key: string) => string;
  hrefOf: (slot: string, series?: string) => string;
}) {
  const rows = slots.filter((s) => s.total > 0).reverse();
  return (
    <Table caption={caption}>
      <TableHead columns={[slotColumn, ...series.map((s) => seriesLabel(kind, s)), "Total"]} />
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
        {rows.map((slot) => (
          <tr key={slot.key}>
            <Td>{slotLabel(slot.key)}</Td>
            {series.map((s) => (
              <Td key={s} className="tabular-nums">
                <CountLink
                  count={slot.bySeries[s] ?? 0}
                  href={hrefOf(slot.key, s)}
                  label={`${formatCount(slot.bySeries[s] ?? 0)} ${seriesLabel(kind, s)}, ${slotLabel(slot.key)}`}
                />
              </Td>
            ))}
            <Td className="tabular-nums">
              <CountLink
                count={slot.total}
                href={hrefOf(slot.key)}
                label={`${formatCount(slot.total)} in all, ${slotLabel(slot.key)}`}
              />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export async function ExpiredPerHourSection({ data: pending }: { data: Promise<ExpiredPerHour> }) {
  const data = await pending;
  return (
    <ChartCard
      id="expired-per-hour"
      title="Expired authenticators per hour"
      description={
        <>
          {formatCount(data.total)} <code>authenticator.expired</code> events received over the last 7 days, per hour
          (UTC), stacked by verification method.
        </>
      }
      legend={legendOf("method", data.series)}
      empty={data.total === 0 ? "No authenticator.expired events in the last 7 days." : null}
      chart={<ExpiredPerHourChart data={data} />}
      table={
        <SeriesTable
          caption="Expired authenticators per hour and method, last 7 days"
          slotColumn="Hour (UTC)"
          kind="method"
          series={data.series}
          slots={data.hours.map((h) => ({ key: h.hour, total: h.total, bySeries: h.bySeries }))}
          slotLabel={formatHourUtc}
          hrefOf={expiredHourHref}
        />
      }
    />
  );
}

export async function DelayHistogramSection({ data: pending }: { data: Promise<DelayHistogram> }) {
  const data = await pending;
  const lateShare = data.total > 0 ? Math.round((data.late / data.total) * 1000) / 10 : 0;
  return (
    // --chart-late: the warning colour of the late bar and its legend entry, AA against the card in both themes.
    <div className="h-full [--chart-late:var(--color-red-600,#dc2626)] dark:[--chart-late:var(--color-red-400,#f87171)]">
      <ChartCard
        id="delivery-delay"
        className="h-full"
        title="How late events arrive"
        description={
          <>
            Delay from the authenticator&apos;s expiry to the event&apos;s arrival, last 7 days. The service sends
            within 24 h of the expiry
            {data.total > 0 ? (
              <>
                :{" "}
                <strong className={data.late > 0 ? "text-red-700 dark:text-red-300" : undefined}>
                  {formatCount(data.late)}
                </strong>{" "}
                of {formatCount(data.total)} ({lateShare} %) arrived later than that.
              </>
            ) : (
              "."
            )}
          </>
        }
        legend={[
          { label: "Within 24 h", colour: "var(--chart-1)" },
          { label: "Later than 24 h: late by the spec's rule", colour: "var(--chart-late)" },
        ]}
        empty={data.total === 0 ? "No authenticator.expired events with an expiry in the last 7 days." : null}
        chart={<DelayHistogramChart data={data} />}
        table={
          <Table caption="Delivery delay, last 7 days">
            <TableHead columns={["Delay", "Events"]} />
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {data.buckets.map((b) => (
                <tr key={b.key}>
                  <Td>
                    {b.label}
                    {b.late ? (
                      <span className="ml-2 text-xs font-medium text-red-700 dark:text-red-300">
                        later than the service sends
                      </span>
                    ) : null}
                  </Td>
                  <Td className="tabular-nums">
                    <CountLink
                      count={b.count}
                      href={delayBucketHref(b.key)}
                      label={`${formatCount(b.count)} events delivered ${b.label} after the expiry`}
                    />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        }
      />
    </div>
  );
}

export async function RejectionsPerDaySection({ data: pending }: { data: Promise<RejectionsPerDay> }) {
  const data = await pending;
  return (
    <ChartCard
      id="rejections-per-day"
      title="Why deliveries were refused"
      description={
        <>
          {formatCount(data.total)} webhook deliveries refused over the last 7 days, per day (UTC), by reason. Open a
          bar for each refusal&apos;s detail.
        </>
      }
      legend={legendOf("reason", data.series)}
      empty={data.total === 0 ? "No delivery was refused in the last 7 days." : null}
      chart={<RejectionsPerDayChart data={data} />}
      table={
        <SeriesTable
          caption="Refused deliveries per day and reason, last 7 days"
          slotColumn="Day (UTC)"
          kind="reason"
          series={data.series}
          slots={data.days.map((d) => ({ key: d.day, total: d.total, bySeries: d.bySeries }))}
          slotLabel={formatDayUtc}
          hrefOf={rejectionsDayHref}
        />
      }
    />
  );
}
