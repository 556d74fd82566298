/** The values events are made of: dates (valid, at the edges, invalid) and strings (names, methods, bad bytes). */
import type { Rng } from "./rng";

function formatDate(utcMs: number, offsetMinutes: number | "Z", fractionDigits: number): string {
  const off = offsetMinutes === "Z" ? 0 : offsetMinutes;
  const d = new Date(utcMs + off * 60_000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  let s = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (fractionDigits > 0)
    s += "." + pad(d.getUTCMilliseconds(), 3).padEnd(fractionDigits, "0").slice(0, fractionDigits);
  if (offsetMinutes === "Z") return s + "Z";
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${s}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const OFFSETS: readonly (number | "Z")[] = ["Z", "Z", "Z", 0, 330, -480, 60, 840, -720, 1439, -1439, 345, -210];

/**
 * Valid dates at the edges of the contract's range (years 0100–9999 in UTC; below 100 the drivers read
 * a year back as 19xx/20xx, so the receiver refuses them): their own case kind.
 */
export const BOUNDARY_DATES: readonly string[] = [
  "0100-01-01T00:00:00Z",
  "0100-01-01T00:00:00.000+00:00",
  "0100-01-01T23:59:59+23:59",
  "0100-06-15T12:00:00Z",
  "9999-12-31T23:59:59.999Z",
  "9999-12-31T23:59:59+00:00",
  "9999-12-31T00:00:00-23:59",
  "2024-02-29T12:00:00Z",
  "1970-01-01T00:00:00Z",
];

/** A valid date-time with offset, recent, in the shapes a sender may use. */
export function validDate(r: Rng): string {
  const start = Date.UTC(2020, 0, 1);
  const ms = start + r.int(10 * 365 * 24 * 3600) * 1000 + r.int(1000);
  return formatDate(ms, r.pick(OFFSETS), r.pick([0, 3, 3, 3, 6]));
}

/** Dates the receiver must refuse, each with why. */
export const INVALID_DATES: readonly { value: unknown; why: string }[] = [
  { value: "0000-01-01T00:00:00Z", why: "year0000" },
  { value: "0000-12-31T23:59:59.999Z", why: "year0000" },
  { value: "9999-12-31T23:59:59-23:59", why: "utc-year10000" },
  { value: "9999-12-31T00:01:00-23:59", why: "utc-year10000" },
  { value: "0001-01-01T00:00:00+00:01", why: "utc-year0000" },
  { value: "0001-01-01T23:58:59+23:59", why: "utc-year0000" },
  { value: "0001-01-01T00:00:00Z", why: "year-below-100" },
  { value: "0099-12-31T23:59:59Z", why: "year-below-100" },
  { value: "0100-01-01T00:00:00+00:01", why: "utc-year-below-100" },
  { value: "+010000-01-01T00:00:00Z", why: "expanded-year" },
  { value: "2025-06-01T12:00:00", why: "no-offset" },
  { value: "2025-06-01", why: "date-only" },
  { value: "2025-06-01 12:00:00Z", why: "space-separator" },
  { value: "2025-13-01T00:00:00Z", why: "month13" },
  { value: "2025-02-30T00:00:00Z", why: "feb30" },
  { value: "2023-02-29T00:00:00Z", why: "feb29-nonleap" },
  { value: "2025-06-01T25:00:00Z", why: "hour25" },
  { value: "2025-06-01T12:60:00Z", why: "minute60" },
  { value: "2025-06-01T12:00:00+25:00", why: "offset25h" },
  { value: "yesterday", why: "words" },
  { value: "", why: "empty" },
  { value: 1748779200000, why: "number" },
  { value: null, why: "null" },
];

export const UNICODE_NAMES: readonly string[] = [
  "Alice's iPhone",
  "Ålice’s iPhone 📱",
  "手机 (工作)",
  "هاتف أحمد",
  "Pixel\u00a07 Pro",
  "Zoë\u0301's Galaxy",
  "👩‍💻 laptop key",
  "line\u2028sep\u2029para",
  "zero\u200bwidth\ufeffbom-inside",
  "</script><script>alert(1)</script>",
  'quote " backslash \\ slash /',
  "tab\tnewline\ncr\r",
  "ctl \u0001\u0007\u001b\u001f",
  "del \u007f c1 \u0085\u009f",
  "nonchar \uffff \ufffe repl \ufffd",
  "astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🀄",
  "'; drop table webhook_events; --",
  "%s %d {0} ${x}",
];

export const METHODS = [
  "PUSH",
  "SMS",
  "EMAIL_OTP",
  "EMAIL_MAGIC_LINK",
  "PASSKEY",
  "SECURITY_KEY",
  "AUTHENTICATOR_APP",
  "WHATSAPP",
] as const;
export const PLATFORMS = ["IOS", "ANDROID", "WEB", "MACOS", "WINDOWS"] as const;
export const SOURCES = [
  "https://authsignal.com",
  "https://api.authsignal.com/v1",
  "https://eu.api.authsignal.com/v1",
  "urn:fuzz:sender",
  "s",
] as const;
export const OTHER_TYPES = [
  "authenticator.created",
  "authenticator.updated",
  "authenticator.deleted",
  "user.fuzz.custom",
  "x",
  "Authenticator.Expired",
  "authenticator.expired.v2",
] as const;

/** Bad strings: escapes as they appear in JSON text. */
export const NUL_STRINGS = ["\\u0000", "a\\u0000b", "trailing\\u0000", "\\u0000\\u0000"];
export const SURROGATE_STRINGS = [
  "\\ud800",
  "a\\ud800b",
  "\\udfff",
  "\\udc00\\ud800",
  "high-at-end\\udbff",
  "\\ud800\\ud800",
];

/** Bytes that are not UTF-8. */
export const INVALID_UTF8: readonly Buffer[] = [
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xa0, 0xa1]),
  Buffer.from([0xff]),
  Buffer.from([0xfe, 0xff]),
  Buffer.from([0xc0, 0xaf]), // overlong '/'
  Buffer.from([0xe0, 0x80, 0xaf]), // overlong
  Buffer.from([0xed, 0xa0, 0x80]), // encoded surrogate (CESU-8)
  Buffer.from([0xf4, 0x90, 0x80, 0x80]), // above U+10FFFF
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]), // truncated sequence
];
