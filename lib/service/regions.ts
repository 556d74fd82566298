/** The service's regions and how the console names them. Client-safe: no server imports. */
export const regions = ["us", "eu", "au", "ca"] as const;
export type Region = (typeof regions)[number];

export const regionLabels: Record<Region, string> = {
  us: "US (Oregon)",
  eu: "EU (Ireland)",
  au: "AU (Sydney)",
  ca: "CA (Montreal)",
};

/** Short names for messages such as "this key belongs to the EU region". */
export const regionShortNames: Record<Region, string> = { us: "US", eu: "EU", au: "AU", ca: "CA" };

export function isRegion(value: unknown): value is Region {
  return typeof value === "string" && (regions as readonly string[]).includes(value);
}
