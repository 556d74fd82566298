/**
 * The fuzzer's case generator: a deterministic plan (from a seed) of requests to the webhook receiver,
 * each with the answer the contract of issue 16 requires, written out here by what the generator did
 * (never by asking the app's own schemas). Only the signature timestamp is left to send time (now-based).
 * No imports from the app: the fuzzer must not share the receiver's code or its mistakes.
 */
import crypto from "node:crypto";

export const MAX_BODY_BYTES = 262_144;
export const SIGNATURE_TOLERANCE_SECONDS = 300;

// ---------------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): everything but the signature timestamp follows from the seed.

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  /** 0 ≤ n < max */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  /** lo ≤ n ≤ hi */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  hex(length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += "0123456789abcdef"[this.int(16)];
    return out;
  }
  alnum(length: number): string {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
  uuid(): string {
    const h = this.hex(32).split("");
    h[12] = "4";
    h[16] = "89ab"[this.int(4)]!;
    const s = h.join("");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
  /** An independent stream, so that lazily built bodies do not depend on the order they are built in. */
  fork(): Rng {
    return new Rng(Math.floor(this.next() * 4294967296));
  }
}

// ---------------------------------------------------------------------------------------------------
// Signatures (SERVICE-FACTS): base64 without padding of HMAC-SHA256(key, `${t}.${rawBody}`).

export function hmacSignature(key: string, t: number | string, body: Buffer): string {
  return crypto.createHmac("sha256", key).update(`${t}.`).update(body).digest("base64").replace(/=+$/, "");
}

/** Builds the X-Signature-V2 value(s) at send time: one string per header line (two = a duplicated header). */
export type Signer = (body: Buffer, t: number, keys: readonly string[]) => string[];

const WRONG_KEY = "fuzz_not_a_server_key_00000000000000000";

function signWith(order: readonly number[]): Signer {
  return (body, t, keys) => [[`t=${t}`, ...order.map((k) => `v2=${hmacSignature(keys[k]!, t, body)}`)].join(",")];
}

// ---------------------------------------------------------------------------------------------------
// The plan.

export type Conn = "signed" | "unsigned";
export type Tokens = { signed: string; unsigned: string };
export type PathSpec = { label: string; conn?: Conn; make: (tokens: Tokens) => string };

export type Expectation = {
  /** Acceptable statuses (more than one only where the contract leaves the order of two rules open). */
  status: number[];
  /** For a 400: a name errorDescription must contain. */
  field?: string;
};

export type FuzzCase = {
  index: number;
  kind: string;
  method: string;
  path: PathSpec;
  /** null: no Content-Type header. */
  contentType: string | null;
  body?: Buffer | (() => Buffer);
  /** length: Content-Length; chunked: no length, several chunks; partial: declares `declaredLength`, sends a prefix and waits. */
  transfer: "length" | "chunked" | "partial";
  declaredLength?: number;
  sign?: Signer;
  /** Seconds added to now for the signature timestamp. */
  skew?: number;
  extraHeaders?: [string, string][];
  expect: Expectation;
  /** Set when the request carries an event that is stored if answered 200. */
  event?: { key: string; conn: Conn; eventId: string };
  /** Index of the case that must be answered before this one is sent (deliveries of one event, in order). */
  after?: number;
};

export type Plan = { cases: FuzzCase[]; neverInLogs: string[] };

type EventPlan = { key: string; conn: Conn; id: string; body: Buffer; makeConflict: () => Buffer; lastCase: number; reusable: boolean };

type Identity = { userId: string; email: string; emailLocal: string; phone: string; phoneDigits: string };

// ---------------------------------------------------------------------------------------------------
// JSON text with exact control over the bytes: Raw pieces are spliced in verbatim.

class Raw {
  constructor(readonly piece: string | Buffer) {}
}
const raw = (piece: string | Buffer) => new Raw(piece);

type Style = { indent?: string | number; lead?: string; trail?: string; escapes?: ("at" | "plus" | "slash" | "nonascii")[] };

function serialize(value: unknown, style: Style = {}): Buffer {
  const pieces: (string | Buffer)[] = [];
  let text = JSON.stringify(value, (_key, v: unknown) => (v instanceof Raw ? `~~RAW${pieces.push(v.piece) - 1}~~` : v), style.indent);
  // Every escape below only touches characters that can occur inside strings alone.
  for (const escape of style.escapes ?? []) {
    if (escape === "at") text = text.replace(/@/g, "\\u0040");
    if (escape === "plus") text = text.replace(/\+/g, "\\u002B");
    if (escape === "slash") text = text.replace(/\//g, "\\/");
    if (escape === "nonascii") text = text.replace(/[^\x00-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  }
  text = (style.lead ?? "") + text + (style.trail ?? "");
  const out: Buffer[] = [];
  let last = 0;
  for (const match of text.matchAll(/"~~RAW(\d+)~~"/g)) {
    out.push(Buffer.from(text.slice(last, match.index), "utf8"));
    const piece = pieces[Number(match[1])]!;
    out.push(typeof piece === "string" ? Buffer.from(piece, "utf8") : piece);
    last = match.index! + match[0].length;
  }
  out.push(Buffer.from(text.slice(last), "utf8"));
  return Buffer.concat(out);
}

/** Positions of bytes outside JSON strings (structure), and inside strings (content). */
function jsonByteClasses(body: Buffer): { outside: number[]; inside: number[] } {
  const outside: number[] = [];
  const inside: number[] = [];
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (inString) {
      if (b === 0x5c) {
        i++; // skip the escaped byte
        continue;
      }
      if (b === 0x22) inString = false;
      else if (b < 0x80) inside.push(i);
    } else if (b === 0x22) inString = true;
    else if (b > 0x20) outside.push(i);
  }
  return { outside, inside };
}

// ---------------------------------------------------------------------------------------------------
// Dates.

function formatDate(utcMs: number, offsetMinutes: number | "Z", fractionDigits: number): string {
  const off = offsetMinutes === "Z" ? 0 : offsetMinutes;
  const d = new Date(utcMs + off * 60_000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  let s = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (fractionDigits > 0) s += "." + pad(d.getUTCMilliseconds(), 3).padEnd(fractionDigits, "0").slice(0, fractionDigits);
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
const BOUNDARY_DATES: readonly string[] = [
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
function validDate(r: Rng): string {
  const start = Date.UTC(2020, 0, 1);
  const ms = start + r.int(10 * 365 * 24 * 3600) * 1000 + r.int(1000);
  return formatDate(ms, r.pick(OFFSETS), r.pick([0, 3, 3, 3, 6]));
}

/** Dates the receiver must refuse, each with why. */
const INVALID_DATES: readonly { value: unknown; why: string }[] = [
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

// ---------------------------------------------------------------------------------------------------
// Strings.

const UNICODE_NAMES: readonly string[] = [
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
  "quote \" backslash \\ slash /",
  "tab\tnewline\ncr\r",
  "ctl \u0001\u0007\u001b\u001f",
  "del \u007f c1 \u0085\u009f",
  "nonchar \uffff \ufffe repl \ufffd",
  "astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🀄",
  "'; drop table webhook_events; --",
  "%s %d {0} ${x}",
];

const METHODS = ["PUSH", "SMS", "EMAIL_OTP", "EMAIL_MAGIC_LINK", "PASSKEY", "SECURITY_KEY", "AUTHENTICATOR_APP", "WHATSAPP"] as const;
const PLATFORMS = ["IOS", "ANDROID", "WEB", "MACOS", "WINDOWS"] as const;
const SOURCES = ["https://authsignal.com", "https://api.authsignal.com/v1", "https://eu.api.authsignal.com/v1", "urn:fuzz:sender", "s"] as const;
const OTHER_TYPES = ["authenticator.created", "authenticator.updated", "authenticator.deleted", "user.fuzz.custom", "x", "Authenticator.Expired", "authenticator.expired.v2"] as const;

/** Bad strings: escapes as they appear in JSON text. */
const NUL_STRINGS = ["\\u0000", "a\\u0000b", "trailing\\u0000", "\\u0000\\u0000"];
const SURROGATE_STRINGS = ["\\ud800", "a\\ud800b", "\\udfff", "\\udc00\\ud800", "high-at-end\\udbff", "\\ud800\\ud800"];

/** Bytes that are not UTF-8. */
const INVALID_UTF8: readonly Buffer[] = [
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

// ---------------------------------------------------------------------------------------------------
// Generator.

type Gen = {
  r: Rng;
  tag: string;
  identities: Identity[];
  markers: string[];
  tenants: string[];
  cases: FuzzCase[];
  events: EventPlan[];
};

const tokenPath = (conn: Conn, suffix = ""): PathSpec => ({
  label: `/api/webhooks/{${conn}}${suffix}`,
  conn,
  make: (t) => `/api/webhooks/${t[conn]}${suffix}`,
});
const literalPath = (path: string, label = path): PathSpec => ({ label, make: () => path });

function pickConn(r: Rng): Conn {
  return r.chance(0.6) ? "signed" : "unsigned";
}

/** A valid signature for the signed connection, by key 1, key 2, or both (in either order). */
function validSigner(r: Rng): Signer {
  return signWith(r.pick([[0], [0], [1], [0, 1], [1, 0]]));
}

function marker(g: Gen, r: Rng): string {
  return r.pick(g.markers);
}

function expiredData(g: Gen, r: Rng): [string, unknown][] {
  const who = r.pick(g.identities);
  const method = r.pick(METHODS);
  const entries: [string, unknown][] = [
    ["userId", who.userId],
    ["verificationMethod", method],
    ["createdAt", validDate(r)],
    ["expiresAt", validDate(r)],
    ["userAuthenticatorId", `ua_${r.hex(12)}`],
  ];
  if (r.chance(0.6)) entries.push(["deviceName", r.chance(0.3) ? `${r.pick(UNICODE_NAMES)} ${marker(g, r)}` : r.pick(UNICODE_NAMES)]);
  if (r.chance(0.6)) entries.push(["devicePlatform", r.pick(PLATFORMS)]);
  if (method.startsWith("EMAIL") || r.chance(0.15)) entries.push(["email", who.email]);
  if (method === "SMS" || method === "WHATSAPP" || r.chance(0.15)) entries.push(["phoneNumber", who.phone]);
  if (method === "PASSKEY" || r.chance(0.1)) {
    entries.push(["credentialId", r.alnum(r.range(16, 86))]);
    entries.push(["aaguid", r.uuid()]);
    if (r.chance(0.7)) entries.push(["credentialName", `${r.pick(UNICODE_NAMES)} ${marker(g, r)}`]);
  }
  return r.chance(0.3) ? r.shuffle(entries) : entries;
}

function envelopeEntries(g: Gen, r: Rng, id: string, type: string, data: unknown): [string, unknown][] {
  const entries: [string, unknown][] = [
    ["version", 1],
    ["id", id],
    ["source", r.pick(SOURCES)],
    ["time", validDate(r)],
    ["tenantId", r.pick(g.tenants)],
    ["type", type],
    ["data", data],
  ];
  return r.chance(0.25) ? r.shuffle(entries) : entries;
}

function randomStyle(r: Rng, allowEscapes: boolean): Style {
  const style: Style = {};
  if (r.chance(0.2)) style.indent = r.pick([2, 4, "\t"]);
  if (r.chance(0.1)) style.lead = r.pick([" ", "\n", "\t \r\n"]);
  if (r.chance(0.15)) style.trail = r.pick(["\n", "\r\n", "  "]);
  if (allowEscapes && r.chance(0.3)) style.escapes = r.shuffle(["at", "plus", "slash", "nonascii"] as const).slice(0, r.range(1, 4));
  return style;
}

/** A random JSON value for the data of an unknown kind: anything goes (huge numbers, __proto__, unicode). */
function randomValue(g: Gen, r: Rng, depth: number): unknown {
  const roll = r.int(depth > 3 ? 6 : 9);
  switch (roll) {
    case 0:
      return r.pick([0, -1, 42, 3.14159, -0.5, 1e21, Number.MAX_SAFE_INTEGER]);
    case 1:
      return raw(r.pick(["1e400", "-1e400", "123456789012345678901234567890", "-0", "1E+308", "0.0000000000000000000001", "4.9e-324"]));
    case 2:
      return r.pick([true, false, null]);
    case 3:
      return r.pick(UNICODE_NAMES);
    case 4:
      return marker(g, r);
    case 5:
      return r.pick([r.pick(g.identities).email, r.pick(g.identities).phone, r.pick(g.identities).userId]);
    case 6:
    case 7: {
      const out: Record<string, unknown> = {};
      const n = r.range(0, 5);
      for (let i = 0; i < n; i++) out[r.pick(["a", "email", "phoneNumber", "__proto__", "constructor", "ünï", "", "x y", `k${i}`])] = randomValue(g, r, depth + 1);
      return out;
    }
    default:
      return Array.from({ length: r.range(0, 4) }, () => randomValue(g, r, depth + 1));
  }
}

function unknownData(g: Gen, r: Rng): Record<string, unknown> {
  const data: Record<string, unknown> = { note: marker(g, r) };
  const n = r.range(0, 6);
  for (let i = 0; i < n; i++) data[`f${i}`] = randomValue(g, r, 0);
  if (r.chance(0.3)) data.userId = r.pick(g.identities).userId;
  if (r.chance(0.3)) data.contacts = [{ email: r.pick(g.identities).email }, { phoneNumber: r.pick(g.identities).phone }];
  return data;
}

/** JSON text nested `depth` levels: arrays or objects. */
function nested(depth: number, r: Rng, leaf: string): string {
  if (r.chance(0.5)) return "[".repeat(depth) + leaf + "]".repeat(depth);
  return '{"d":'.repeat(depth) + leaf + "}".repeat(depth);
}

function push(g: Gen, c: Omit<FuzzCase, "index" | "method" | "contentType" | "transfer"> & Partial<Pick<FuzzCase, "method" | "contentType" | "transfer">>): FuzzCase {
  const full: FuzzCase = { method: "POST", contentType: "application/json", transfer: "length", ...c, index: g.cases.length };
  g.cases.push(full);
  return full;
}

/** A valid expired (or unknown-kind) event body with a fresh id, and a builder for a conflicting body with that id. */
function validEventBody(g: Gen, r: Rng, id: string, opts: { unknownKind?: boolean } = {}): { body: Buffer; makeConflict: () => Buffer } {
  const type = opts.unknownKind ? r.pick(OTHER_TYPES) : "authenticator.expired";
  const buildData = (rr: Rng) => (opts.unknownKind ? unknownData(g, rr) : Object.fromEntries(expiredData(g, rr)));
  const entries = envelopeEntries(g, r, id, type, buildData(r));
  const body = serialize(Object.fromEntries(entries), randomStyle(r, !opts.unknownKind));
  const fork = r.fork();
  const makeConflict = () => {
    // Same envelope, other data (a different user and authenticator): a body that differs in meaning.
    // (An expired event's data gets a new userAuthenticatorId; no extra field, whose acceptance the contract leaves open.)
    const data = buildData(fork);
    if (opts.unknownKind) (data as Record<string, unknown>).conflict = `conflict ${fork.hex(8)}`;
    const conflicting = entries.map(([k, v]): [string, unknown] => [k, k === "data" ? data : v]);
    return serialize(Object.fromEntries(conflicting));
  };
  return { body, makeConflict };
}

function newEvent(g: Gen, kind: string, conn: Conn, opts: { unknownKind?: boolean; id?: string; body?: Buffer; path?: PathSpec; contentType?: string; sign?: Signer; skew?: number; edge?: boolean } = {}): FuzzCase {
  const r = g.r;
  const id = opts.id ?? r.uuid();
  const built = opts.body ? { body: opts.body, makeConflict: validEventBody(g, r, id).makeConflict } : validEventBody(g, r, id, opts);
  const key = `${conn}:${id}`;
  const c = push(g, {
    kind,
    path: opts.path ?? tokenPath(conn),
    body: built.body,
    contentType: opts.contentType ?? "application/json",
    sign: conn === "signed" ? (opts.sign ?? validSigner(r)) : undefined,
    skew: opts.skew,
    expect: { status: [200] },
    event: { key, conn, eventId: id },
  });
  // Redeliveries reuse ordinary events only, so that a failure of an edge case is reported once, under its own kind.
  g.events.push({ key, conn, id, body: built.body, makeConflict: built.makeConflict, lastCase: c.index, reusable: !opts.edge });
  return c;
}

/** An earlier event (from the recent ones, so deliveries of one event overlap with others in flight). */
function recentEvent(g: Gen): EventPlan | undefined {
  const candidates: EventPlan[] = [];
  for (let i = g.events.length - 1; i >= 0 && candidates.length < 400; i--) if (g.events[i]!.reusable) candidates.push(g.events[i]!);
  return candidates.length ? g.r.pick(candidates) : undefined;
}

/** One defect in an otherwise valid event (fresh id): mutate the envelope entries, expect 400 naming `field`. */
function invalidEnvelopeCase(g: Gen, kind: string, mutate: (entries: [string, unknown][], data: [string, unknown][]) => void, field?: string, opts: { unknownKind?: boolean } = {}) {
  const r = g.r;
  const conn = pickConn(r);
  const data = opts.unknownKind ? Object.entries(unknownData(g, r)) : expiredData(g, r);
  const entries = envelopeEntries(g, r, r.uuid(), opts.unknownKind ? r.pick(OTHER_TYPES) : "authenticator.expired", null);
  mutate(entries, data);
  const dataIndex = entries.findIndex(([k]) => k === "data");
  if (dataIndex >= 0 && entries[dataIndex]![1] === null) entries[dataIndex]![1] = Object.fromEntries(data);
  const body = serialize(Object.fromEntries(entries), randomStyle(r, false));
  push(g, { kind, path: tokenPath(conn), body, sign: conn === "signed" ? validSigner(r) : undefined, expect: { status: [400], field } });
}

const setEntry = (entries: [string, unknown][], key: string, value: unknown) => {
  const at = entries.findIndex(([k]) => k === key);
  if (at >= 0) entries[at]![1] = value;
  else entries.push([key, value]);
};
const dropEntry = (entries: [string, unknown][], key: string) => {
  const at = entries.findIndex(([k]) => k === key);
  if (at >= 0) entries.splice(at, 1);
};

/** A valid event body padded (in data) to exactly `size` bytes. */
function paddedEventBody(g: Gen, r: Rng, size: number): Buffer {
  const unknownKind = r.chance(0.5);
  const id = r.uuid();
  const entries = envelopeEntries(g, r, id, unknownKind ? r.pick(OTHER_TYPES) : "authenticator.expired", null);
  const data = unknownKind ? unknownData(g, r) : Object.fromEntries(expiredData(g, r));
  const unicode = r.chance(0.5) ? "Ω≈ç√∫˜µ≤≥÷ 🌍 " : "";
  const padKey = unknownKind ? "blob" : "deviceName";
  const build = (pad: string) => {
    const d = { ...data, [padKey]: unicode + pad };
    return serialize(Object.fromEntries(entries.map(([k, v]): [string, unknown] => [k, k === "data" ? d : v])));
  };
  const base = build("").length;
  if (size < base) return build("");
  let pad = "";
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 ";
  const chunk = Array.from({ length: 4096 }, () => alphabet[r.int(alphabet.length)]).join("");
  while (pad.length < size - base) pad += chunk;
  return build(pad.slice(0, size - base));
}

type Weighted = { kind: string; weight: number; gen: (g: Gen) => void };

const TABLE: Weighted[] = [
  // ----- valid (~40%) -----
  { kind: "valid.expired.signed", weight: 11, gen: (g) => void newEvent(g, "valid.expired.signed", "signed") },
  { kind: "valid.expired.unsigned", weight: 6, gen: (g) => void newEvent(g, "valid.expired.unsigned", "unsigned") },
  { kind: "valid.unknownKind", weight: 4, gen: (g) => void newEvent(g, "valid.unknownKind", pickConn(g.r), { unknownKind: true }) },
  {
    kind: "valid.deepData",
    weight: 1.5,
    gen: (g) => {
      const r = g.r;
      const conn = pickConn(r);
      const id = r.uuid();
      const depth = r.chance(0.3) ? r.range(1, 50) : r.range(51, 5000);
      const entries = envelopeEntries(g, r, id, r.pick(OTHER_TYPES), raw(`{"note":${JSON.stringify(marker(g, r))},"deep":${nested(depth, r, r.chance(0.5) ? "1" : '"leaf"')}}`));
      newEvent(g, "valid.deepData", conn, { id, body: serialize(Object.fromEntries(entries)) });
    },
  },
  {
    kind: "valid.redelivery",
    weight: 6,
    gen: (g) => {
      const e = recentEvent(g);
      if (!e) return void newEvent(g, "valid.expired.signed", "signed");
      const r = g.r;
      const c = push(g, {
        kind: "valid.redelivery",
        path: tokenPath(e.conn, r.chance(0.1) ? "/" : ""),
        body: e.body,
        sign: e.conn === "signed" ? validSigner(r) : undefined,
        expect: { status: [200] },
        event: { key: e.key, conn: e.conn, eventId: e.id },
        after: e.lastCase,
      });
      e.lastCase = c.index;
    },
  },
  {
    kind: "valid.conflictingRedelivery",
    weight: 2,
    gen: (g) => {
      const e = recentEvent(g);
      if (!e) return void newEvent(g, "valid.expired.unsigned", "unsigned");
      const r = g.r;
      const c = push(g, {
        kind: "valid.conflictingRedelivery",
        path: tokenPath(e.conn),
        body: e.makeConflict(),
        sign: e.conn === "signed" ? validSigner(r) : undefined,
        expect: { status: [200] },
        event: { key: e.key, conn: e.conn, eventId: e.id },
        after: e.lastCase,
      });
      e.lastCase = c.index;
    },
  },
  {
    kind: "valid.sameIdOtherConnection",
    weight: 2,
    gen: (g) => {
      const e = recentEvent(g);
      const other: Conn = e?.conn === "signed" ? "unsigned" : "signed";
      if (!e || g.events.some((x) => x.key === `${other}:${e.id}`)) return void newEvent(g, "valid.expired.signed", "signed");
      newEvent(g, "valid.sameIdOtherConnection", other, { id: e.id, body: e.body });
    },
  },
  {
    kind: "valid.trailingSlash",
    weight: 1.5,
    gen: (g) => {
      const conn = pickConn(g.r);
      newEvent(g, "valid.trailingSlash", conn, { path: tokenPath(conn, "/") });
    },
  },
  {
    kind: "valid.contentType",
    weight: 1.5,
    gen: (g) => {
      const ct = g.r.pick([
        "application/json; charset=utf-8",
        "application/json;charset=UTF-8",
        "Application/JSON",
        "APPLICATION/JSON; CHARSET=UTF-8",
        "application/cloudevents+json",
        "application/vnd.authsignal.webhook+json; v=1",
        "application/problem+json",
        "application/json ; charset=utf-8",
      ]);
      newEvent(g, "valid.contentType", pickConn(g.r), { contentType: ct });
    },
  },
  {
    kind: "valid.signatureVariants",
    weight: 1.5,
    gen: (g) => {
      const r = g.r;
      const variant = r.int(4);
      if (variant === 0) return void newEvent(g, "valid.signatureVariants", "signed", { sign: signWith([1]) });
      if (variant === 1) return void newEvent(g, "valid.signatureVariants", "signed", { skew: r.pick([-240, -200, 200, 240]) });
      if (variant === 2) {
        // An extra v2 entry that matches nothing, before the one that does (rotation with an unknown key).
        const sign: Signer = (body, t, keys) => [`t=${t},v2=${hmacSignature(WRONG_KEY, t, body)},v2=${hmacSignature(keys[r.int(2)]!, t, body)}`];
        return void newEvent(g, "valid.signatureVariants", "signed", { sign });
      }
      newEvent(g, "valid.signatureVariants", "signed", { sign: signWith([1, 0]) });
    },
  },
  {
    kind: "valid.bigBody",
    weight: 1,
    gen: (g) => {
      const r = g.r;
      const size = r.pick([MAX_BODY_BYTES, MAX_BODY_BYTES - 1, MAX_BODY_BYTES - r.range(2, 5000), r.range(100_000, MAX_BODY_BYTES)]);
      const body = paddedEventBody(g, r, size);
      const conn = pickConn(r);
      const id = (JSON.parse(body.toString("utf8")) as { id: string }).id;
      newEvent(g, "valid.bigBody", conn, { id, body });
      if (r.chance(0.3)) g.cases.at(-1)!.transfer = "chunked";
    },
  },
  { kind: "valid.unicodeEscapes", weight: 1, gen: (g) => unicodeEscapeEvent(g) },
  {
    kind: "valid.dateBoundary",
    weight: 1,
    gen: (g) => {
      const r = g.r;
      const conn = pickConn(r);
      const id = r.uuid();
      const where = r.pick(["time", "createdAt", "expiresAt"]);
      const date = r.pick(BOUNDARY_DATES);
      const data = expiredData(g, r);
      if (where !== "time") setEntry(data, where, date);
      const entries = envelopeEntries(g, r, id, "authenticator.expired", Object.fromEntries(data));
      if (where === "time") setEntry(entries, "time", date);
      newEvent(g, "valid.dateBoundary", conn, { id, body: serialize(Object.fromEntries(entries)), edge: true });
    },
  },

  // ----- body mutations (signed validly over the mutated bytes, so they reach parsing) -----
  { kind: "body.byteFlip", weight: 2.5, gen: (g) => mutatedBody(g, "body.byteFlip", (b, r) => byteFlip(b, r)) },
  {
    kind: "body.truncated",
    weight: 2,
    gen: (g) =>
      mutatedBody(g, "body.truncated", (b, r) => {
        const end = b.lastIndexOf(0x7d); // the closing brace
        return b.subarray(0, r.int(end));
      }),
  },
  {
    kind: "body.invalidUtf8",
    weight: 2.5,
    gen: (g) =>
      mutatedBody(g, "body.invalidUtf8", (b, r) => {
        const { inside } = jsonByteClasses(b);
        const at = r.pick(inside);
        return Buffer.concat([b.subarray(0, at), r.pick(INVALID_UTF8), b.subarray(at)]);
      }),
  },
  { kind: "body.bom", weight: 0.8, gen: (g) => mutatedBody(g, "body.bom", (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])) },
  {
    kind: "body.utf16",
    weight: 0.3,
    gen: (g) => mutatedBody(g, "body.utf16", (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString("utf8"), "utf16le")])),
  },
  {
    kind: "body.rawControlChar",
    weight: 1.5,
    gen: (g) =>
      mutatedBody(g, "body.rawControlChar", (b, r) => {
        // An unescaped control character inside a string is not JSON (RFC 8259 §7), NUL included.
        const { inside } = jsonByteClasses(b);
        const at = r.pick(inside);
        return Buffer.concat([b.subarray(0, at), Buffer.from([r.pick([0x00, 0x01, 0x08, 0x09, 0x0a, 0x0d, 0x1b, 0x1f])]), b.subarray(at)]);
      }),
  },
  {
    kind: "body.notJson",
    weight: 1.5,
    gen: (g) => {
      const r = g.r;
      const m = marker(g, r);
      const who = r.pick(g.identities);
      const text = r.pick([
        "",
        " ",
        `email=${who.email}&note=${m}`,
        `{'id': '${m}'}`,
        `{"note":"${m}",}`,
        `{"note":"${m}"} trailing`,
        `{"note":"${m}"}{"note":"${m}"}`,
        `{"version":NaN,"note":"${m}"}`,
        `{"note":"${m}" /* comment */}`,
        `<xml note="${m}"/>`,
        `{"note":"${m}\\x41"}`,
        `{"note":"${m}\\u12"}`,
        `{"note":"${m}`,
      ]);
      const conn = pickConn(r);
      push(g, { kind: "body.notJson", path: tokenPath(conn), body: Buffer.from(text, "utf8"), sign: conn === "signed" ? validSigner(r) : undefined, expect: { status: [400] } });
    },
  },
  {
    kind: "body.deepWholeBody",
    weight: 1,
    gen: (g) => {
      const r = g.r;
      const conn = pickConn(r);
      // Now and then far deeper than 5,000 (arrays, 2 bytes a level, so it stays under the size limit): still 400, never 5xx.
      const extreme = r.chance(0.02);
      const leaf = JSON.stringify(marker(g, r));
      const depth = extreme ? r.range(50_000, 100_000) : r.range(1, 5000);
      const body = Buffer.from(extreme ? "[".repeat(depth) + leaf + "]".repeat(depth) : nested(depth, r, leaf), "utf8");
      push(g, { kind: "body.deepWholeBody", path: tokenPath(conn), body, sign: conn === "signed" ? validSigner(r) : undefined, expect: { status: [400] } });
    },
  },
  {
    kind: "body.notAnObject",
    weight: 0.7,
    gen: (g) => {
      const r = g.r;
      const conn = pickConn(r);
      const body = Buffer.from(r.pick(["[]", "null", "true", "42", "1e400", `"${marker(g, r)}"`, "{}", `[${JSON.stringify(marker(g, r))}]`]), "utf8");
      push(g, { kind: "body.notAnObject", path: tokenPath(conn), body, sign: conn === "signed" ? validSigner(r) : undefined, expect: { status: [400] } });
    },
  },

  // ----- envelope -----
  {
    kind: "envelope.invalidField",
    weight: 6,
    gen: (g) => {
      const r = g.r;
      const [field, value] = r.pick<[string, unknown]>([
        ["version", undefined],
        ["version", "1"],
        ["version", 1.5],
        ["version", null],
        ["version", true],
        ["version", raw("1e400")],
        ["id", undefined],
        ["id", "not-a-uuid"],
        ["id", r.uuid().replace(/-/g, "")],
        ["id", `{${r.uuid()}}`],
        ["id", `${r.uuid()}0`],
        ["id", `g${r.uuid().slice(1)}`],
        ["id", ` ${r.uuid()}`],
        ["id", 12345],
        ["id", ""],
        ["id", null],
        ["source", undefined],
        ["source", ""],
        ["source", 42],
        ["source", null],
        ["time", undefined],
        ["tenantId", undefined],
        ["tenantId", "tenant_acme"],
        ["tenantId", ""],
        ["tenantId", 42],
        ["type", undefined],
        ["type", ""],
        ["type", "t".repeat(201)],
        ["type", 5],
        ["data", undefined],
        ["data", []],
        ["data", null],
        ["data", "x"],
        ["data", 5],
      ]);
      const mutate = (entries: [string, unknown][]) => {
        if (value === undefined) dropEntry(entries, field);
        else if (field === "data") setEntry(entries, "data", value === null ? raw("null") : value);
        else setEntry(entries, field, value);
      };
      invalidEnvelopeCase(g, "envelope.invalidField", mutate, field, { unknownKind: field === "data" ? r.chance(0.5) : r.chance(0.3) });
    },
  },
  {
    kind: "envelope.expiredData",
    weight: 3,
    gen: (g) => {
      const r = g.r;
      const [field, value] = r.pick<[string, unknown]>([
        ["userId", undefined],
        ["verificationMethod", undefined],
        ["createdAt", undefined],
        ["expiresAt", undefined],
        ["userAuthenticatorId", undefined],
        ["userId", 42],
        ["verificationMethod", null],
        ["userAuthenticatorId", ["ua_1"]],
        ["deviceName", 5],
        ["devicePlatform", false],
        ["email", true],
        ["email", null],
        ["phoneNumber", raw(r.pick(g.identities).phoneDigits)],
        ["credentialId", {}],
        ["aaguid", []],
        ["credentialName", 1.5],
      ]);
      invalidEnvelopeCase(g, "envelope.expiredData", (_e, data) => {
        if (value === undefined) dropEntry(data, field);
        else setEntry(data, field, value);
      }, field);
    },
  },
  {
    kind: "envelope.validExtras",
    weight: 1,
    gen: (g) => {
      // A 200-char type, a type at the limit, __proto__ keys, duplicate-free extra fields: all valid.
      const r = g.r;
      const conn = pickConn(r);
      const id = r.uuid();
      const type = r.pick(["t".repeat(200), `fz.${"x".repeat(197)}`, "a"]);
      const data = raw(`{"__proto__":{"polluted":true},"constructor":{"prototype":1},"note":${JSON.stringify(marker(g, r))}}`);
      // An envelope field the contract does not name: the service may add fields; stored as sent.
      const entries = [...envelopeEntries(g, r, id, type, data), ["extraTopLevel", { note: marker(g, r) }] as [string, unknown]];
      newEvent(g, "envelope.validExtras", conn, { id, body: serialize(Object.fromEntries(entries)) });
    },
  },
  {
    kind: "envelope.nulOrSurrogate",
    weight: 5,
    gen: (g) => {
      const r = g.r;
      const escaped = r.pick(r.chance(0.5) ? NUL_STRINGS : SURROGATE_STRINGS);
      const bad = raw(`"${escaped}"`);
      // Not inside the data of an unknown kind: that is stored only as the raw JSON text, where `\u0000`
      // is six ASCII characters, so it is accepted as sent.
      const where = r.pick(["source", "type", "userId", "deviceName", "email", "credentialName", "verificationMethod"]);
      if (where === "source" || where === "type") {
        invalidEnvelopeCase(g, "envelope.nulOrSurrogate", (entries) => setEntry(entries, where, raw(`"fz.${escaped}"`)), where, { unknownKind: where === "type" });
      } else {
        invalidEnvelopeCase(g, "envelope.nulOrSurrogate", (_e, data) => setEntry(data, where, bad), where);
      }
    },
  },
  {
    kind: "envelope.date",
    weight: 6,
    gen: (g) => {
      const r = g.r;
      const bad = r.pick(INVALID_DATES);
      const where = r.pick(["time", "createdAt", "expiresAt"]);
      const value = bad.value === null ? raw("null") : bad.value;
      invalidEnvelopeCase(
        g,
        `envelope.date`,
        (entries, data) => (where === "time" ? setEntry(entries, "time", value) : setEntry(data, where, value)),
        where,
        { unknownKind: where === "time" && r.chance(0.3) },
      );
    },
  },

  // ----- signatures (signed connection; body valid, fresh id) -----
  {
    kind: "signature.missing",
    weight: 1.5,
    gen: (g) => signatureCase(g, "signature.missing", () => []),
  },
  {
    kind: "signature.malformed",
    weight: 2,
    gen: (g) => {
      const shape = g.r.int(14);
      signatureCase(g, "signature.malformed", (body, t, keys) => {
        const sig = hmacSignature(keys[0]!, t, body);
        return [
          [
            "",
            "garbage",
            `v2=${sig}`,
            `t=${t}`,
            `t=abc,v2=${sig}`,
            `t=${t};v2=${sig}`,
            `t=${t} v2=${sig}`,
            `t=${t},v1=${sig}`,
            `t=${t},v2=`,
            `t=${t}.5,v2=${sig}`,
            `t=0x${t.toString(16)},v2=${sig}`,
            `t=${t}`.padEnd(200, ","),
            `,,,=,t=,v2=,=`,
            `t=${t},v2=${"A".repeat(5000)}`,
          ][shape]!,
        ];
      });
    },
  },
  {
    kind: "signature.wrong",
    weight: 2,
    gen: (g) => {
      const how = g.r.int(7);
      signatureCase(g, "signature.wrong", (body, t, keys) => {
        const good = hmacSignature(keys[0]!, t, body);
        switch (how) {
          case 0:
            return [`t=${t},v2=${hmacSignature(WRONG_KEY, t, body)}`];
          case 1:
            return [`t=${t},v2=${hmacSignature(keys[0]!, t - 1, body)}`]; // signed another timestamp
          case 2:
            return [`t=${t},v2=${crypto.createHmac("sha256", keys[0]!).update(`${t}.`).update(body).digest("hex")}`];
          case 3:
            return [`t=${t},v2=${good.slice(0, -1)}`];
          case 4:
            return [`t=${t},v2=${good.slice(0, 10)}${good[10] === "A" ? "B" : "A"}${good.slice(11)}`];
          case 5:
            return [`t=${t},v2=${crypto.createHmac("sha256", keys[1]!).update(body).digest("base64").replace(/=+$/, "")}`]; // no "t." prefix
          default:
            return [`t=${t},v2=${crypto.createHmac("sha256", keys[0]!).update(`${t}`).update(body).digest("base64").replace(/=+$/, "")}`]; // no dot
        }
      });
    },
  },
  {
    kind: "signature.bodyChangedAfterSigning",
    weight: 2,
    gen: (g) => {
      const r = g.r;
      const { body } = validEventBody(g, r, r.uuid());
      const how = r.int(4);
      let sent: Buffer;
      if (how === 0) sent = Buffer.concat([body, Buffer.from(" ")]);
      else if (how === 1) sent = serialize(JSON.parse(body.toString("utf8")), { indent: 1 }); // re-serialised
      else if (how === 2) sent = byteFlip(body, r);
      else sent = Buffer.from(body.toString("utf8").replace(/"version":\s*1/, '"version":2'));
      const signedOver = body;
      const order = r.pick([[0], [1], [0, 1]]);
      push(g, {
        kind: "signature.bodyChangedAfterSigning",
        path: tokenPath("signed"),
        body: sent,
        sign: (_b, t, keys) => signWith(order)(signedOver, t, keys),
        expect: { status: [401] },
      });
    },
  },
  {
    kind: "signature.duplicateHeader",
    weight: 1.5,
    gen: (g) => {
      const how = g.r.int(3);
      signatureCase(g, "signature.duplicateHeader", (body, t, keys) => {
        const valid = `t=${t},v2=${hmacSignature(keys[0]!, t, body)}`;
        const other = `t=${t},v2=${hmacSignature(keys[1]!, t, body)}`;
        return how === 0 ? [valid, other] : how === 1 ? [valid, "t=1,v2=junk"] : ["t=1,v2=junk", valid];
      });
    },
  },
  {
    kind: "signature.staleTimestamp",
    weight: 2,
    gen: (g) => {
      const r = g.r;
      const skew = r.pick([-305, -310, -600, -3600, -86_400 * 400, 305, 310, 3600, 86_400 * 365 * 20]);
      // A correct signature over the stale timestamp.
      signatureCase(g, "signature.staleTimestamp", (body, t, keys) => [`t=${t},v2=${hmacSignature(keys[r.int(2)]!, t, body)}`], skew);
    },
  },
  {
    kind: "signature.staleAbsolute",
    weight: 0.3,
    gen: (g) => signatureCase(g, "signature.staleAbsolute", (body, _t, keys) => [`t=0,v2=${hmacSignature(keys[0]!, 0, body)}`]),
  },
  {
    kind: "signature.invalidRedelivery",
    weight: 1,
    gen: (g) => {
      // A redelivery of a stored event that fails the signature check: refused, and not counted.
      const r = g.r;
      const e = recentEvent(g);
      if (!e || e.conn !== "signed") return signatureCase(g, "signature.missing", () => []);
      const stale = r.chance(0.5);
      const c = push(g, {
        kind: "signature.invalidRedelivery",
        path: tokenPath("signed"),
        body: e.body,
        sign: stale ? signWith([0]) : (body, t) => [`t=${t},v2=${hmacSignature(WRONG_KEY, t, body)}`],
        skew: stale ? -900 : undefined,
        expect: { status: [401] },
        event: { key: e.key, conn: e.conn, eventId: e.id },
        after: e.lastCase,
      });
      e.lastCase = c.index;
    },
  },

  // ----- content type -----
  {
    kind: "contentType.notJson",
    weight: 3,
    gen: (g) => {
      const r = g.r;
      const ct = r.pick([null, "", "text/plain", "text/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/jsonp", "application/json-seq", "application/json5", "json", "*/*", "application/octet-stream", "text/html; charset=utf-8", "application/json+xml"]);
      const conn = pickConn(r);
      const { body } = validEventBody(g, r, r.uuid());
      push(g, { kind: "contentType.notJson", path: tokenPath(conn), body, contentType: ct, sign: conn === "signed" ? validSigner(r) : undefined, expect: { status: [415] } });
    },
  },

  // ----- sizes -----
  {
    kind: "size.overLimit",
    weight: 1.5,
    gen: (g) => {
      const r = g.r;
      const conn = pickConn(r);
      const size = r.chance(0.1) ? r.range(1_000_000, 3_000_000) : r.pick([MAX_BODY_BYTES + 1, MAX_BODY_BYTES + 2, MAX_BODY_BYTES + r.range(3, 70_000)]);
      const fork = r.fork();
      const chunked = r.chance(0.3);
      push(g, {
        kind: chunked ? "size.overLimitChunked" : "size.overLimit",
        path: tokenPath(conn),
        body: () => paddedEventBody(g, fork, size),
        transfer: chunked ? "chunked" : "length",
        sign: conn === "signed" ? validSigner(r) : undefined,
        expect: { status: [413] },
      });
    },
  },

  // ----- paths -----
  {
    kind: "path.unknownToken",
    weight: 2,
    gen: (g) => {
      const r = g.r;
      const { body } = validEventBody(g, r, r.uuid());
      const path = r.pick([
        literalPath(`/api/webhooks/${r.alnum(32)}`, "/api/webhooks/{random}"),
        literalPath(`/api/webhooks/${r.alnum(8)}`, "/api/webhooks/{short}"),
        { label: "/api/webhooks/{signed, upper-cased}", make: (t: Tokens) => `/api/webhooks/${t.signed.toUpperCase() === t.signed ? "X" + t.signed : t.signed.toUpperCase()}` },
        { label: "/api/webhooks/{unsigned}x", make: (t: Tokens) => `/api/webhooks/${t.unsigned}x` },
        { label: "/api/webhooks/{signed minus 1}", make: (t: Tokens) => `/api/webhooks/${t.signed.slice(0, -1)}` },
        { label: "/api/webhooks/{signed}%2Fx", make: (t: Tokens) => `/api/webhooks/${t.signed}%2Fx` },
        { label: "/api/webhooks/{unsigned};x=1", make: (t: Tokens) => `/api/webhooks/${t.unsigned};x=1` },
      ]);
      const ct = r.chance(0.2) ? "text/plain" : "application/json";
      push(g, { kind: "path.unknownToken", path, body, contentType: ct, sign: validSigner(r), expect: { status: [404] } });
    },
  },
  {
    kind: "path.unknownTokenHugeBody",
    weight: 0.3,
    gen: (g) => {
      // Declares 50 MB and sends 4 KiB: an unknown token must be answered without reading the body.
      const r = g.r;
      const prefix = Buffer.from(`{"note":"${marker(g, r)}","pad":"${"p".repeat(4096)}`);
      push(g, {
        kind: "path.unknownTokenHugeBody",
        path: literalPath(`/api/webhooks/${r.alnum(32)}`, "/api/webhooks/{random}"),
        body: prefix,
        transfer: "partial",
        declaredLength: 50_000_000,
        expect: { status: [404] },
      });
    },
  },
  {
    kind: "path.malformed",
    weight: 3,
    gen: (g) => {
      const r = g.r;
      const path = r.pick<PathSpec>([
        literalPath("/api/webhooks/%E0%A4%A"),
        literalPath("/api/webhooks/%"),
        literalPath("/api/webhooks/%ZZ"),
        literalPath("/api/webhooks/%C0%AF"),
        literalPath("/api/webhooks/abc%00def"),
        literalPath("/api/webhooks/%ED%A0%80"),
        literalPath("/api/webhooks/"),
        literalPath("/api/webhooks"),
        { label: "/api/webhooks/{signed}/extra", make: (t) => `/api/webhooks/${t.signed}/extra` },
        { label: "/api/webhooks/{unsigned}/a/b", make: (t) => `/api/webhooks/${t.unsigned}/a/b` },
        { label: "/api/webhooks/{unsigned}/%E0%A4%A", make: (t) => `/api/webhooks/${t.unsigned}/%E0%A4%A` },
        literalPath(`/api/webhooks/${r.alnum(129)}`, "/api/webhooks/{129 chars}"),
        literalPath(`/api/webhooks/${r.alnum(600)}`, "/api/webhooks/{600 chars}"),
        literalPath(`/api/webhooks/${r.alnum(2000)}`, "/api/webhooks/{2000 chars}"),
        literalPath(`/api/webhooks/${r.alnum(8000)}`, "/api/webhooks/{8000 chars}"),
        literalPath(`/api/webhooks/${"%41".repeat(2000)}`, "/api/webhooks/{%41 x 2000}"),
      ]);
      const { body } = validEventBody(g, r, r.uuid());
      push(g, { kind: "path.malformed", path, body, sign: validSigner(r), expect: { status: [404] } });
    },
  },

  // ----- methods -----
  {
    kind: "method.notPost",
    weight: 4,
    gen: (g) => {
      const r = g.r;
      const method = r.pick(["GET", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]);
      const onReceiver = r.chance(0.75);
      const path = onReceiver
        ? tokenPath(pickConn(r), r.chance(0.2) ? "/" : "")
        : r.pick<PathSpec>([
            literalPath(`/api/webhooks/${r.alnum(32)}`, "/api/webhooks/{random}"),
            literalPath("/api/webhooks/"),
            literalPath("/api/webhooks/%E0%A4%A"),
            { label: "/api/webhooks/{signed}/extra", make: (t) => `/api/webhooks/${t.signed}/extra` },
          ]);
      const withBody = (method === "PUT" || method === "PATCH" || method === "DELETE") && r.chance(0.6);
      const extraHeaders: [string, string][] | undefined =
        method === "OPTIONS" && r.chance(0.5)
          ? [
              ["origin", "https://evil.example"],
              ["access-control-request-method", "POST"],
            ]
          : undefined;
      push(g, {
        kind: `method.${method}`,
        method,
        path,
        body: withBody ? validEventBody(g, r, r.uuid()).body : undefined,
        contentType: withBody ? "application/json" : null,
        extraHeaders,
        // The contract says both "unknown path → 404" and "not POST → 405" without ordering them.
        expect: { status: onReceiver ? [405] : [404, 405] },
      });
    },
  },
];

/** Valid events whose strings use every escape JSON has, surrogate pairs included. */
function unicodeEscapeEvent(g: Gen) {
  const r = g.r;
  const conn = pickConn(r);
  const id = r.uuid();
  const data = Object.fromEntries(expiredData(g, r));
  data.deviceName = raw(
    `"${r.pick([
      "\\ud83d\\ude00 pair",
      "\\u00c5lice \\u2603",
      "ctl \\u0001\\u001f\\u007f",
      "esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t",
      "\\uFEFF bom-escaped \\uffff",
      "\\u0041\\u0042\\u0043",
    ])} ${marker(g, r)}"`,
  );
  const who = r.pick(g.identities);
  if (r.chance(0.5)) data.email = raw(`"${who.email.replace("@", "\\u0040")}"`);
  if (r.chance(0.5)) data.phoneNumber = raw(`"${who.phone.replace("+", "\\u002B")}"`);
  newEvent(g, "valid.unicodeEscapes", conn, { id, body: serialize(Object.fromEntries(envelopeEntries(g, r, id, "authenticator.expired", data))) });
}

/** A valid event (fresh id) on either connection, mutated by `mutate`, then signed over the mutated bytes: 400. */
function mutatedBody(g: Gen, kind: string, mutate: (body: Buffer, r: Rng) => Buffer) {
  const r = g.r;
  const conn = pickConn(r);
  const { body } = validEventBody(g, r, r.uuid(), { unknownKind: r.chance(0.3) });
  push(g, { kind, path: tokenPath(conn), body: mutate(body, r), sign: conn === "signed" ? validSigner(r) : undefined, expect: { status: [400] } });
}

/** Flips the high bit of one byte: inside a string it makes invalid UTF-8, outside it breaks the JSON. */
function byteFlip(body: Buffer, r: Rng): Buffer {
  const out = Buffer.from(body);
  const { outside, inside } = jsonByteClasses(body);
  if (r.chance(0.5) && outside.length) {
    out[r.pick(outside)] = 0x23; // '#' where JSON structure is
  } else {
    const at = r.pick(inside.length ? inside : outside);
    out[at] = out[at]! ^ 0x80;
  }
  return out;
}

function signatureCase(g: Gen, kind: string, sign: Signer, skew?: number) {
  const r = g.r;
  const { body } = validEventBody(g, r, r.uuid(), { unknownKind: r.chance(0.2) });
  push(g, { kind, path: tokenPath("signed"), body, sign, skew, expect: { status: [401] } });
}

export function planFuzzCases(seed: number, requests: number): Plan {
  const r = new Rng(seed);
  const tag = (seed >>> 0).toString(36);
  const identities: Identity[] = Array.from({ length: 48 }, (_, i) => {
    const emailLocal = `fzmail${tag}x${i}`;
    const phoneDigits = `1555${String(r.int(10_000_000)).padStart(7, "0")}`;
    return { userId: `usr_fz${tag}_${i}`, email: `${emailLocal}@example.test`, emailLocal, phone: `+${phoneDigits}`, phoneDigits };
  });
  const markers = ["a", "b", "c", "d"].map((s) => `fzmk${tag}${s}q`);
  const tenants = [r.uuid(), r.uuid(), "3f6c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01"];
  const g: Gen = { r, tag, identities, markers, tenants, cases: [], events: [] };

  const total = TABLE.reduce((sum, w) => sum + w.weight, 0);
  while (g.cases.length < requests) {
    let roll = r.float() * total;
    const entry = TABLE.find((w) => (roll -= w.weight) < 0) ?? TABLE[0]!;
    entry.gen(g);
  }
  g.cases.length = requests;

  const neverInLogs = [...markers, ...identities.flatMap((i) => [i.userId, i.email, i.emailLocal, i.phone, i.phoneDigits])];
  return { cases: g.cases, neverInLogs };
}

/** The table's weights as proportions, for the report. */
export function caseWeights(): { kind: string; percent: number }[] {
  const total = TABLE.reduce((sum, w) => sum + w.weight, 0);
  return TABLE.map((w) => ({ kind: w.kind, percent: Math.round((w.weight / total) * 1000) / 10 }));
}
