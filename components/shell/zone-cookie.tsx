"use client";

import { useEffect } from "react";

import { browserZone, VIEWER_ZONE_COOKIE } from "@/lib/viewer-zone";

/**
 * Leaves the browser's time zone in a cookie on every page, the sign-in page first, so that the server renders the
 * log's times in the reader's zone from their first visit to it (not UTC, then the zone once hydrated).
 */
export function ZoneCookie() {
  useEffect(() => {
    const cookie = `${VIEWER_ZONE_COOKIE}=${encodeURIComponent(browserZone())}`;
    if (!document.cookie.split("; ").includes(cookie))
      document.cookie = `${cookie}; path=/; max-age=31536000; samesite=lax`;
  }, []);
  return null;
}
