import {
  dropEntry,
  envelopeEntries,
  invalidEnvelopeCase,
  marker,
  newEvent,
  pickConn,
  setEntry,
  type Weighted,
} from "./generator";
import { raw, serialize } from "./json";
import { INVALID_DATES, NUL_STRINGS, SURROGATE_STRINGS } from "./values";

/** Envelopes with one defect (a field missing, of the wrong type, a bad date or string), and valid extras. */
export const ENVELOPE_CASES: Weighted[] = [
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
      invalidEnvelopeCase(g, "envelope.invalidField", mutate, field, {
        unknownKind: field === "data" ? r.chance(0.5) : r.chance(0.3),
      });
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
      invalidEnvelopeCase(
        g,
        "envelope.expiredData",
        (_e, data) => {
          if (value === undefined) dropEntry(data, field);
          else setEntry(data, field, value);
        },
        field,
      );
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
      const data = raw(
        `{"__proto__":{"polluted":true},"constructor":{"prototype":1},"note":${JSON.stringify(marker(g, r))}}`,
      );
      // An envelope field the contract does not name: the service may add fields; stored as sent.
      const entries = [
        ...envelopeEntries(g, r, id, type, data),
        ["extraTopLevel", { note: marker(g, r) }] as [string, unknown],
      ];
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
        invalidEnvelopeCase(
          g,
          "envelope.nulOrSurrogate",
          (entries) => setEntry(entries, where, raw(`"fz.${escaped}"`)),
          where,
          { unknownKind: where === "type" },
        );
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
];
