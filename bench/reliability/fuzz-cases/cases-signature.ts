import crypto from "node:crypto";

import { push, recentEvent, tokenPath, validEventBody, type Gen, type Weighted } from "./generator";
import { hmacSignature, signWith, WRONG_KEY, type Signer } from "./hmac";
import { byteFlip, serialize } from "./json";

/** Signatures on the signed connection (body valid, fresh id): missing, malformed, wrong, stale: 401. */
export const SIGNATURE_CASES: Weighted[] = [
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
            return [
              `t=${t},v2=${crypto.createHmac("sha256", keys[1]!).update(body).digest("base64").replace(/=+$/, "")}`,
            ]; // no "t." prefix
          default:
            return [
              `t=${t},v2=${crypto.createHmac("sha256", keys[0]!).update(`${t}`).update(body).digest("base64").replace(/=+$/, "")}`,
            ]; // no dot
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
      else if (how === 1)
        sent = serialize(JSON.parse(body.toString("utf8")), { indent: 1 }); // re-serialised
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
      signatureCase(
        g,
        "signature.staleTimestamp",
        (body, t, keys) => [`t=${t},v2=${hmacSignature(keys[r.int(2)]!, t, body)}`],
        skew,
      );
    },
  },
  {
    kind: "signature.staleAbsolute",
    weight: 0.3,
    gen: (g) =>
      signatureCase(g, "signature.staleAbsolute", (body, _t, keys) => [`t=0,v2=${hmacSignature(keys[0]!, 0, body)}`]),
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
];

function signatureCase(g: Gen, kind: string, sign: Signer, skew?: number) {
  const r = g.r;
  const { body } = validEventBody(g, r, r.uuid(), { unknownKind: r.chance(0.2) });
  push(g, { kind, path: tokenPath("signed"), body, sign, skew, expect: { status: [401] } });
}
