/** Client-safe shapes of the overview (times as UTC ISO strings). */
import type { KeyFingerprint, SecretKindName } from "@/lib/connections/types";
import type { Region } from "@/lib/service/regions";
import type { DelayBucket } from "@/lib/webhooks/constants";

/** One connection's webhook health over the last 24 h; test events and test deliveries are left out. */
export type ConnectionHealth = {
  id: string;
  name: string;
  region: Region;
  /** When the management key was last accepted by the region; null: saved unverified. */
  verifiedAt: string | null;
  keys: Partial<Record<SecretKindName, KeyFingerprint>>;
  /** The last real event first received, whenever it was. */
  lastEventAt: string | null;
  events24h: number;
  rejections24h: number;
  topRejectionReason24h: { reason: string; count: number } | null;
  /** Events stored with signature_status 'unsigned': the connection had no server key when they came. */
  unsigned24h: number;
  lastUnsignedAt: string | null;
  badSignature24h: number;
  lastBadSignatureAt: string | null;
};

/** Whether the tenant has an email OTP configuration; "unknown" when the service did not tell in time. */
export type EmailOtpPresence = { kind: "present" } | { kind: "absent" } | { kind: "unknown"; reason: string };

/** The headline numbers: what is connected and whether webhooks are arriving, over every connection. */
export type OverviewTotals = {
  connections: number;
  events24h: number;
  /** Every refused delivery, including those to a URL that names no connection. */
  rejections24h: number;
  lastEventAt: string | null;
};

/** Another series than the known ones (a method or reason this console version does not name). */
export const OTHER_SERIES = "other";

export type ExpiredPerHour = {
  /** Start of each hour (UTC), oldest first, the current hour last; hours without events included. */
  hours: Array<{ hour: string; total: number; bySeries: Record<string, number> }>;
  /** Series with at least one event, in colour order: known methods, then OTHER_SERIES. */
  series: string[];
  total: number;
};

export type DelayHistogram = {
  buckets: Array<{ key: DelayBucket; label: string; count: number; late: boolean }>;
  total: number;
  /** Events received more than 24 h after their expiry: later than the spec allows. */
  late: number;
};

export type RejectionsPerDay = {
  /** Start of each day (UTC), oldest first, today last. */
  days: Array<{ day: string; total: number; bySeries: Record<string, number> }>;
  /** Reasons with at least one rejection, in colour order: known reasons, then OTHER_SERIES. */
  series: string[];
  total: number;
};

/** An authenticator.expired event as the "expired today" list shows it (no email or phone). */
export type RecentExpiry = {
  id: number;
  connectionId: string;
  connectionName: string;
  userId: string | null;
  verificationMethod: string | null;
  devicePlatform: string | null;
  expiresAt: string | null;
  firstReceivedAt: string;
};
