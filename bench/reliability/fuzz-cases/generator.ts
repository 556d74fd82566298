/** The generator's state and the pieces every case is built from: paths, signers, envelopes, events. */
import type { Conn, EventPlan, FuzzCase, Identity, PathSpec } from "./case";
import { signWith, type Signer } from "./hmac";
import { raw, serialize, type Style } from "./json";
import type { Rng } from "./rng";
import { METHODS, OTHER_TYPES, PLATFORMS, SOURCES, UNICODE_NAMES, validDate } from "./values";

export type Gen = {
  r: Rng;
  tag: string;
  identities: Identity[];
  markers: string[];
  tenants: string[];
  cases: FuzzCase[];
  events: EventPlan[];
};

export const tokenPath = (conn: Conn, suffix = ""): PathSpec => ({
  label: `/api/webhooks/{${conn}}${suffix}`,
  conn,
  make: (t) => `/api/webhooks/${t[conn]}${suffix}`,
});
export const literalPath = (path: string, label = path): PathSpec => ({ label, make: () => path });

export function pickConn(r: Rng): Conn {
  return r.chance(0.6) ? "signed" : "unsigned";
}

/** A valid signature for the signed connection, by key 1, key 2, or both (in either order). */
export function validSigner(r: Rng): Signer {
  return signWith(r.pick([[0], [0], [1], [0, 1], [1, 0]]));
}

export function marker(g: Gen, r: Rng): string {
  return r.pick(g.markers);
}

export function expiredData(g: Gen, r: Rng): [string, unknown][] {
  const who = r.pick(g.identities);
  const method = r.pick(METHODS);
  const entries: [string, unknown][] = [
    ["userId", who.userId],
    ["verificationMethod", method],
    ["createdAt", validDate(r)],
    ["expiresAt", validDate(r)],
    ["userAuthenticatorId", `ua_${r.hex(12)}`],
  ];
  if (r.chance(0.6))
    entries.push(["deviceName", r.chance(0.3) ? `${r.pick(UNICODE_NAMES)} ${marker(g, r)}` : r.pick(UNICODE_NAMES)]);
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

export function envelopeEntries(g: Gen, r: Rng, id: string, type: string, data: unknown): [string, unknown][] {
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
  if (allowEscapes && r.chance(0.3))
    style.escapes = r.shuffle(["at", "plus", "slash", "nonascii"] as const).slice(0, r.range(1, 4));
  return style;
}

/** A random JSON value for the data of an unknown kind: anything goes (huge numbers, __proto__, unicode). */
function randomValue(g: Gen, r: Rng, depth: number): unknown {
  const roll = r.int(depth > 3 ? 6 : 9);
  switch (roll) {
    case 0:
      return r.pick([0, -1, 42, 3.14159, -0.5, 1e21, Number.MAX_SAFE_INTEGER]);
    case 1:
      return raw(
        r.pick([
          "1e400",
          "-1e400",
          "123456789012345678901234567890",
          "-0",
          "1E+308",
          "0.0000000000000000000001",
          "4.9e-324",
        ]),
      );
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
      for (let i = 0; i < n; i++)
        out[r.pick(["a", "email", "phoneNumber", "__proto__", "constructor", "ünï", "", "x y", `k${i}`])] = randomValue(
          g,
          r,
          depth + 1,
        );
      return out;
    }
    default:
      return Array.from({ length: r.range(0, 4) }, () => randomValue(g, r, depth + 1));
  }
}

export function unknownData(g: Gen, r: Rng): Record<string, unknown> {
  const data: Record<string, unknown> = { note: marker(g, r) };
  const n = r.range(0, 6);
  for (let i = 0; i < n; i++) data[`f${i}`] = randomValue(g, r, 0);
  if (r.chance(0.3)) data.userId = r.pick(g.identities).userId;
  if (r.chance(0.3))
    data.contacts = [{ email: r.pick(g.identities).email }, { phoneNumber: r.pick(g.identities).phone }];
  return data;
}

/** JSON text nested `depth` levels: arrays or objects. */
export function nested(depth: number, r: Rng, leaf: string): string {
  if (r.chance(0.5)) return "[".repeat(depth) + leaf + "]".repeat(depth);
  return '{"d":'.repeat(depth) + leaf + "}".repeat(depth);
}

export function push(
  g: Gen,
  c: Omit<FuzzCase, "index" | "method" | "contentType" | "transfer"> &
    Partial<Pick<FuzzCase, "method" | "contentType" | "transfer">>,
): FuzzCase {
  const full: FuzzCase = {
    method: "POST",
    contentType: "application/json",
    transfer: "length",
    ...c,
    index: g.cases.length,
  };
  g.cases.push(full);
  return full;
}

/** A valid expired (or unknown-kind) event body with a fresh id, and a builder for a conflicting body with that id. */
export function validEventBody(
  g: Gen,
  r: Rng,
  id: string,
  opts: { unknownKind?: boolean } = {},
): { body: Buffer; makeConflict: () => Buffer } {
  const type = opts.unknownKind ? r.pick(OTHER_TYPES) : "authenticator.expired";
  const buildData = (rr: Rng) => (opts.unknownKind ? unknownData(g, rr) : Object.fromEntries(expiredData(g, rr)));
  const entries = envelopeEntries(g, r, id, type, buildData(r));
  const body = serialize(Object.fromEntries(entries), randomStyle(r, !opts.unknownKind));
  const fork = r.fork();
  const makeConflict = () => {
    // Same envelope, other data (a different user and authenticator): a body that differs in meaning.
    // (An expired event's data gets a new userAuthenticatorId; no extra field, whose acceptance the contract leaves
    // open.)
    const data = buildData(fork);
    if (opts.unknownKind) (data as Record<string, unknown>).conflict = `conflict ${fork.hex(8)}`;
    const conflicting = entries.map(([k, v]): [string, unknown] => [k, k === "data" ? data : v]);
    return serialize(Object.fromEntries(conflicting));
  };
  return { body, makeConflict };
}

export function newEvent(
  g: Gen,
  kind: string,
  conn: Conn,
  opts: {
    unknownKind?: boolean;
    id?: string;
    body?: Buffer;
    path?: PathSpec;
    contentType?: string;
    sign?: Signer;
    skew?: number;
    edge?: boolean;
  } = {},
): FuzzCase {
  const r = g.r;
  const id = opts.id ?? r.uuid();
  const built = opts.body
    ? { body: opts.body, makeConflict: validEventBody(g, r, id).makeConflict }
    : validEventBody(g, r, id, opts);
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
  g.events.push({
    key,
    conn,
    id,
    body: built.body,
    makeConflict: built.makeConflict,
    lastCase: c.index,
    reusable: !opts.edge,
  });
  return c;
}

/** An earlier event (from the recent ones, so deliveries of one event overlap with others in flight). */
export function recentEvent(g: Gen): EventPlan | undefined {
  const candidates: EventPlan[] = [];
  for (let i = g.events.length - 1; i >= 0 && candidates.length < 400; i--)
    if (g.events[i]!.reusable) candidates.push(g.events[i]!);
  return candidates.length ? g.r.pick(candidates) : undefined;
}

/** One defect in an otherwise valid event (fresh id): mutate the envelope entries, expect 400 naming `field`. */
export function invalidEnvelopeCase(
  g: Gen,
  kind: string,
  mutate: (entries: [string, unknown][], data: [string, unknown][]) => void,
  field?: string,
  opts: { unknownKind?: boolean } = {},
) {
  const r = g.r;
  const conn = pickConn(r);
  const data = opts.unknownKind ? Object.entries(unknownData(g, r)) : expiredData(g, r);
  const entries = envelopeEntries(
    g,
    r,
    r.uuid(),
    opts.unknownKind ? r.pick(OTHER_TYPES) : "authenticator.expired",
    null,
  );
  mutate(entries, data);
  const dataIndex = entries.findIndex(([k]) => k === "data");
  if (dataIndex >= 0 && entries[dataIndex]![1] === null) entries[dataIndex]![1] = Object.fromEntries(data);
  const body = serialize(Object.fromEntries(entries), randomStyle(r, false));
  push(g, {
    kind,
    path: tokenPath(conn),
    body,
    sign: conn === "signed" ? validSigner(r) : undefined,
    expect: { status: [400], field },
  });
}

export const setEntry = (entries: [string, unknown][], key: string, value: unknown) => {
  const at = entries.findIndex(([k]) => k === key);
  if (at >= 0) entries[at]![1] = value;
  else entries.push([key, value]);
};
export const dropEntry = (entries: [string, unknown][], key: string) => {
  const at = entries.findIndex(([k]) => k === key);
  if (at >= 0) entries.splice(at, 1);
};

/** A valid event body padded (in data) to exactly `size` bytes. */
export function paddedEventBody(g: Gen, r: Rng, size: number): Buffer {
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

export type Weighted = { kind: string; weight: number; gen: (g: Gen) => void };
