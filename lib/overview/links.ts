/**
 * Where each number of the overview leads: the webhook log filtered to exactly what was counted (real
 * events only, the same time range and series). Client-safe: the charts build these on click.
 */
import { ALL_CONNECTIONS, filtersToQuery, type DelayBucket } from "@/lib/webhooks/constants";

import { OTHER_SERIES } from "./types";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/**
 * The log's receivedTo is inclusive: a range of `ms` from `startIso` ends one millisecond before the next one
 * starts.
 */
function range(startIso: string, ms: number) {
  return { receivedFrom: startIso, receivedTo: new Date(Date.parse(startIso) + ms - 1).toISOString() };
}

const log = (filters: Record<string, string | undefined>) => `/webhooks?${filtersToQuery(filters)}`;
const rejectionsLog = (filters: Record<string, string | undefined>) =>
  `/webhooks?${filtersToQuery({ tab: "rejections", ...filters })}`;
/** Folded series have no single value to filter on: their link shows the whole range. */
const only = (series: string | undefined) => (series === OTHER_SERIES ? undefined : series);

/** The authenticator.expired events received in one hour, of one method if given. */
export function expiredHourHref(hourIso: string, method?: string): string {
  return log({
    connectionId: ALL_CONNECTIONS,
    ...range(hourIso, HOUR_MS),
    verificationMethod: only(method),
    test: "exclude",
  });
}

/** The authenticator.expired events of the last 7 days delivered with this delay. */
export function delayBucketHref(bucket: DelayBucket): string {
  return log({ connectionId: ALL_CONNECTIONS, received: "7d", delay: bucket, test: "exclude" });
}

/** The deliveries refused in one day, for one reason if given. */
export function rejectionsDayHref(dayIso: string, reason?: string): string {
  return rejectionsLog({ connectionId: ALL_CONNECTIONS, reason: only(reason), ...range(dayIso, DAY_MS) });
}

/** One event, its detail drawer open. */
export function eventHref(id: number): string {
  return log({ connectionId: ALL_CONNECTIONS, event: String(id) });
}

/** A connection's real events of the last 24 h, of every type. */
export function connectionEventsHref(connectionId: string): string {
  return log({ connectionId, type: "all", received: "24h", test: "exclude" });
}

/** A connection's refused deliveries of the last 24 h, for one reason if given. */
export function connectionRejectionsHref(connectionId: string, reason?: string): string {
  return rejectionsLog({ connectionId, reason, received: "24h" });
}
