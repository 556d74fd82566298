"use client";

import { createContext, useContext, useEffect, useSyncExternalStore } from "react";

import { VIEWER_ZONE_COOKIE } from "@/lib/webhooks/constants";

const ServerZone = createContext("UTC");
const noSubscription = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The zone the server rendered the log's times in (the cookie's, else UTC). Once loaded, the browser's own zone
 * takes over and is written to the cookie, so the next page renders in it from the start.
 */
export function ViewerZoneProvider({ zone, children }: { zone: string; children: React.ReactNode }) {
  useEffect(() => {
    const own = browserZone();
    if (own !== zone)
      document.cookie = `${VIEWER_ZONE_COOKIE}=${encodeURIComponent(own)}; path=/; max-age=31536000; samesite=lax`;
  }, [zone]);
  return <ServerZone.Provider value={zone}>{children}</ServerZone.Provider>;
}

/** The reader's time zone: the server's guess while hydrating, then the browser's. */
export function useViewerZone(): string {
  const serverZone = useContext(ServerZone);
  return useSyncExternalStore(noSubscription, browserZone, () => serverZone);
}
