import "server-only";

import { env } from "@/lib/env";

import type { Region } from "./regions";

/** The real service's regional base addresses (SERVICE-FACTS); each ends in /v1. */
export const defaultBaseUrls: Record<Region, string> = {
  us: "https://api.authsignal.com/v1",
  eu: "https://eu.api.authsignal.com/v1",
  au: "https://au.api.authsignal.com/v1",
  ca: "https://ca.api.authsignal.com/v1",
};

/**
 * The base address of a region. Overridable by env only (SERVICE_BASE_URL_<REGION>), never from
 * the UI: nobody can point the console, and with it a tenant's key, at another host.
 */
export function baseUrlFor(region: Region): string {
  const e = env();
  const override = {
    us: e.SERVICE_BASE_URL_US,
    eu: e.SERVICE_BASE_URL_EU,
    au: e.SERVICE_BASE_URL_AU,
    ca: e.SERVICE_BASE_URL_CA,
  }[region];
  return (override ?? defaultBaseUrls[region]).replace(/\/+$/, "");
}

export function managementBaseUrl(region: Region): string {
  return `${baseUrlFor(region)}/management`;
}
