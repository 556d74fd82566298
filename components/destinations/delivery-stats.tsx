import { ChartCard } from "@/components/overview/chart-card";
import { Table, TableHead, Td } from "@/components/ui/table";
import type { DeliveryStats } from "@/lib/destinations/types";

import { DELIVERY_SERIES, slotName } from "./delivery-series";
import { percent } from "./format";
import { LazyDeliveryChart } from "./lazy-delivery-chart";

const share = (rate: number | null) => (rate === null ? "—" : percent(rate));
const ms = (value: number | null) => (value === null ? "—" : `${value} ms`);

const TITLES = { "24h": "Last 24 hours", "7d": "Last 7 days" } as const;

/** A destination's delivery rate and p95 latency over one window: the figures, a chart, and the same as a table. */
export function DeliveryStatsCard({ stats }: { stats: DeliveryStats }) {
  const id = `delivery-${stats.window}`;
  return (
    <ChartCard
      id={id}
      title={TITLES[stats.window]}
      description={
        <span data-testid={`${id}-summary`}>
          {stats.attempts === 0
            ? "No attempts."
            : `${share(stats.successRate)} delivered of ${stats.attempts} attempt${stats.attempts === 1 ? "" : "s"}; p95 latency ${ms(stats.p95LatencyMs)}.`}
        </span>
      }
      legend={Object.values(DELIVERY_SERIES)}
      empty={stats.attempts === 0 ? "Nothing was sent to it in this period." : null}
      chart={<LazyDeliveryChart stats={stats} />}
      table={
        <Table caption={`Attempts and p95 latency, ${TITLES[stats.window].toLowerCase()}`}>
          <TableHead columns={["Slot (UTC)", "Attempts", "Delivered", "p95 latency"]} />
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {stats.slots
              .filter((slot) => slot.attempts > 0)
              .map((slot) => (
                <tr key={slot.start}>
                  <Td>{slotName(stats.window, slot.start)}</Td>
                  <Td>{slot.attempts}</Td>
                  <Td>{percent(slot.delivered / slot.attempts)}</Td>
                  <Td>{ms(slot.p95LatencyMs)}</Td>
                </tr>
              ))}
          </tbody>
        </Table>
      }
    />
  );
}
