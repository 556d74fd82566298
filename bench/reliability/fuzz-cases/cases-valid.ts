import { MAX_BODY_BYTES, type Conn } from "./case";
import {
  envelopeEntries,
  expiredData,
  marker,
  nested,
  newEvent,
  paddedEventBody,
  pickConn,
  push,
  recentEvent,
  setEntry,
  tokenPath,
  validSigner,
  type Gen,
  type Weighted,
} from "./generator";
import { hmacSignature, signWith, WRONG_KEY, type Signer } from "./hmac";
import { raw, serialize } from "./json";
import { BOUNDARY_DATES, OTHER_TYPES } from "./values";

/** Valid requests (~40 % of the plan): events of every shape, redeliveries, edge dates, big bodies. */
export const VALID_CASES: Weighted[] = [
  { kind: "valid.expired.signed", weight: 11, gen: (g) => void newEvent(g, "valid.expired.signed", "signed") },
  { kind: "valid.expired.unsigned", weight: 6, gen: (g) => void newEvent(g, "valid.expired.unsigned", "unsigned") },
  {
    kind: "valid.unknownKind",
    weight: 4,
    gen: (g) => void newEvent(g, "valid.unknownKind", pickConn(g.r), { unknownKind: true }),
  },
  {
    kind: "valid.deepData",
    weight: 1.5,
    gen: (g) => {
      const r = g.r;
      const conn = pickConn(r);
      const id = r.uuid();
      const depth = r.chance(0.3) ? r.range(1, 50) : r.range(51, 5000);
      const entries = envelopeEntries(
        g,
        r,
        id,
        r.pick(OTHER_TYPES),
        raw(`{"note":${JSON.stringify(marker(g, r))},"deep":${nested(depth, r, r.chance(0.5) ? "1" : '"leaf"')}}`),
      );
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
      if (!e || g.events.some((x) => x.key === `${other}:${e.id}`))
        return void newEvent(g, "valid.expired.signed", "signed");
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
      if (variant === 1)
        return void newEvent(g, "valid.signatureVariants", "signed", { skew: r.pick([-240, -200, 200, 240]) });
      if (variant === 2) {
        // An extra v2 entry that matches nothing, before the one that does (rotation with an unknown key).
        const sign: Signer = (body, t, keys) => [
          `t=${t},v2=${hmacSignature(WRONG_KEY, t, body)},v2=${hmacSignature(keys[r.int(2)]!, t, body)}`,
        ];
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
      const size = r.pick([
        MAX_BODY_BYTES,
        MAX_BODY_BYTES - 1,
        MAX_BODY_BYTES - r.range(2, 5000),
        r.range(100_000, MAX_BODY_BYTES),
      ]);
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
      'esc \\" \\\\ \\/ \\b \\f \\n \\r \\t',
      "\\uFEFF bom-escaped \\uffff",
      "\\u0041\\u0042\\u0043",
    ])} ${marker(g, r)}"`,
  );
  const who = r.pick(g.identities);
  if (r.chance(0.5)) data.email = raw(`"${who.email.replace("@", "\\u0040")}"`);
  if (r.chance(0.5)) data.phoneNumber = raw(`"${who.phone.replace("+", "\\u002B")}"`);
  newEvent(g, "valid.unicodeEscapes", conn, {
    id,
    body: serialize(Object.fromEntries(envelopeEntries(g, r, id, "authenticator.expired", data))),
  });
}
