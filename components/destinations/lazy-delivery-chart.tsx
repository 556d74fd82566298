"use client";

import dynamic from "next/dynamic";

import { CHART_HEIGHT_CLASS } from "@/components/overview/chart-size";
import { Skeleton } from "@/components/ui/card";

/** The chart's code (recharts) is fetched after the page has painted, in its own chunk, as the overview's is. */
export const LazyDeliveryChart = dynamic(() => import("./delivery-chart").then((m) => m.DeliveryChart), {
  ssr: false,
  loading: () => <Skeleton className={`${CHART_HEIGHT_CLASS} w-full`} />,
});
