"use client";

import { createContext, useContext, useSyncExternalStore } from "react";

import { browserZone } from "@/lib/viewer-zone";

const ServerZone = createContext("UTC");
const noSubscription = () => () => {};

/**
 * The zone the server rendered the log's times in (the cookie's, else UTC; every page writes the cookie, so it is
 * the reader's from their first page on: components/shell/zone-cookie.tsx).
 */
export function ViewerZoneProvider({ zone, children }: { zone: string; children: React.ReactNode }) {
  return <ServerZone.Provider value={zone}>{children}</ServerZone.Provider>;
}

/** The reader's time zone: the server's guess while hydrating, then the browser's. */
export function useViewerZone(): string {
  const serverZone = useContext(ServerZone);
  return useSyncExternalStore(noSubscription, browserZone, () => serverZone);
}
