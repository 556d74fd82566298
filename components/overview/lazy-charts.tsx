"use client";

import dynamic from "next/dynamic";

import { Skeleton } from "@/components/ui/card";

import { CHART_HEIGHT_CLASS } from "./chart-size";

/**
 * The charts' code (recharts) is fetched after the page has painted, in its own chunk: the overview's
 * first load carries the numbers and tables, not the chart library. The placeholder has the chart's height.
 */
function ChartPlaceholder() {
  return <Skeleton className={`${CHART_HEIGHT_CLASS} w-full`} />;
}

export const ExpiredPerHourChart = dynamic(() => import("./bar-charts").then((m) => m.ExpiredPerHourChart), {
  ssr: false,
  loading: ChartPlaceholder,
});
export const DelayHistogramChart = dynamic(() => import("./bar-charts").then((m) => m.DelayHistogramChart), {
  ssr: false,
  loading: ChartPlaceholder,
});
export const RejectionsPerDayChart = dynamic(() => import("./bar-charts").then((m) => m.RejectionsPerDayChart), {
  ssr: false,
  loading: ChartPlaceholder,
});
