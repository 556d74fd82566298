"use client";

import { usePathname } from "next/navigation";
import { createContext, use, useEffect, useRef, useState } from "react";

import { BANNER_ALERTS_URL, bannerAlert } from "@/lib/alerts/open-alerts";
import type { AlertPage, BannerAlert } from "@/lib/alerts/types";

/** How often an open page asks again (the evaluator runs every minute by default). */
const REFRESH_MS = 30_000;

type Alerts = Promise<BannerAlert[] | null>;
/** What the browser read itself, and the layout's list it replaces (a new one from the server wins). */
type Fresh = { basis: Alerts; alerts: BannerAlert[] };
const OpenAlertsContext = createContext<{ initial: Alerts; fresh: Fresh | null } | null>(null);

/**
 * The open, unmuted alerts for the banner and the navigation's count: the layout's (`initial`, streamed), then, as a
 * layout does not render again on navigation, GET /api/alerts after each one and every REFRESH_MS while the tab is
 * visible (ARCHITECTURE.md, rule 4). A failed request keeps what is shown.
 */
export function OpenAlertsProvider({ initial, children }: { initial: Alerts; children: React.ReactNode }) {
  const pathname = usePathname();
  const [fresh, setFresh] = useState<Fresh | null>(null);
  const rendered = useRef(false);
  useEffect(() => {
    let current = true;
    const refresh = async () => {
      if (document.visibilityState === "hidden") return;
      try {
        const response = await fetch(BANNER_ALERTS_URL, { headers: { Accept: "application/json" } });
        if (!response.ok) return;
        const page = (await response.json()) as AlertPage;
        if (current) setFresh({ basis: initial, alerts: page.alerts.map(bannerAlert) });
      } catch {
        // Offline or signed out: the banner stays as it was.
      }
    };
    // The first render has the layout's list already; every later one is a navigation (or a new list).
    if (rendered.current) void refresh();
    rendered.current = true;
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [pathname, initial]);
  return <OpenAlertsContext value={{ initial, fresh }}>{children}</OpenAlertsContext>;
}

/** The alerts to show: the browser's newest read, else the layout's (suspends until that has streamed in). */
export function useOpenAlerts(): BannerAlert[] | null {
  const context = use(OpenAlertsContext);
  if (!context) throw new Error("useOpenAlerts needs an OpenAlertsProvider");
  const fromLayout = use(context.initial);
  return context.fresh?.basis === context.initial ? context.fresh.alerts : fromLayout;
}
