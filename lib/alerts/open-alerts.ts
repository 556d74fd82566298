import type { AlertSummary, BannerAlert } from "./types";

/*
 * Open alerts parted by whether they still need someone (acknowledged ones apart), for the banner, the navigation's
 * count and the overview. A module of its own, apart from ./display.ts: the console's shell imports it in every
 * page's first-load JS, and needs none of the words or links there.
 */

/** An open alert as the banner and the navigation's count show it (from the server's list or GET /api/alerts). */
export const bannerAlert = (alert: AlertSummary): BannerAlert => ({
  kind: alert.kind,
  connectionName: alert.connection.name,
  acknowledged: alert.acknowledgedAt !== null,
});

/**
 * One connection's open, unmuted alerts (from listOpenAlerts), parted into those that still need someone and those
 * someone acknowledged: the overview's cards and count, the banner and the navigation's count all part them so.
 */
export function connectionAlerts(alerts: readonly AlertSummary[], connectionId: string) {
  const own = alerts.filter((a) => a.connection.id === connectionId);
  return {
    open: own.filter((a) => a.acknowledgedAt === null),
    acknowledged: own.filter((a) => a.acknowledgedAt !== null),
  };
}

/** GET /api/alerts for what the banner shows: open and not muted now, as many as listOpenAlerts reads. */
export const BANNER_ALERTS_URL = "/api/alerts?state=open&muted=no&limit=200";
