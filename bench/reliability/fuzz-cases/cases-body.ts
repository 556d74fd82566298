import {
  marker,
  nested,
  pickConn,
  push,
  tokenPath,
  validEventBody,
  validSigner,
  type Gen,
  type Weighted,
} from "./generator";
import { byteFlip, jsonByteClasses } from "./json";
import type { Rng } from "./rng";
import { INVALID_UTF8 } from "./values";

/** Broken bodies, signed validly over the broken bytes so that they reach parsing: 400. */
export const BODY_CASES: Weighted[] = [
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
  {
    kind: "body.bom",
    weight: 0.8,
    gen: (g) => mutatedBody(g, "body.bom", (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])),
  },
  {
    kind: "body.utf16",
    weight: 0.3,
    gen: (g) =>
      mutatedBody(g, "body.utf16", (b) =>
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString("utf8"), "utf16le")]),
      ),
  },
  {
    kind: "body.rawControlChar",
    weight: 1.5,
    gen: (g) =>
      mutatedBody(g, "body.rawControlChar", (b, r) => {
        // An unescaped control character inside a string is not JSON (RFC 8259 §7), NUL included.
        const { inside } = jsonByteClasses(b);
        const at = r.pick(inside);
        return Buffer.concat([
          b.subarray(0, at),
          Buffer.from([r.pick([0x00, 0x01, 0x08, 0x09, 0x0a, 0x0d, 0x1b, 0x1f])]),
          b.subarray(at),
        ]);
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
      push(g, {
        kind: "body.notJson",
        path: tokenPath(conn),
        body: Buffer.from(text, "utf8"),
        sign: conn === "signed" ? validSigner(r) : undefined,
        expect: { status: [400] },
      });
    },
  },
  {
    kind: "body.deepWholeBody",
    weight: 1,
    gen: (g) => {
      const r = g.r;
      const conn = pickConn(r);
      // Now and then far deeper than 5,000 (arrays, 2 bytes a level, so it stays under the size limit): still 400,
      // never 5xx.
      const extreme = r.chance(0.02);
      const leaf = JSON.stringify(marker(g, r));
      const depth = extreme ? r.range(50_000, 100_000) : r.range(1, 5000);
      const body = Buffer.from(extreme ? "[".repeat(depth) + leaf + "]".repeat(depth) : nested(depth, r, leaf), "utf8");
      push(g, {
        kind: "body.deepWholeBody",
        path: tokenPath(conn),
        body,
        sign: conn === "signed" ? validSigner(r) : undefined,
        expect: { status: [400] },
      });
    },
  },
  {
    kind: "body.notAnObject",
    weight: 0.7,
    gen: (g) => {
      const r = g.r;
      const conn = pickConn(r);
      const body = Buffer.from(
        r.pick(["[]", "null", "true", "42", "1e400", `"${marker(g, r)}"`, "{}", `[${JSON.stringify(marker(g, r))}]`]),
        "utf8",
      );
      push(g, {
        kind: "body.notAnObject",
        path: tokenPath(conn),
        body,
        sign: conn === "signed" ? validSigner(r) : undefined,
        expect: { status: [400] },
      });
    },
  },
];

/** A valid event (fresh id) on either connection, mutated by `mutate`, then signed over the mutated bytes: 400. */
function mutatedBody(g: Gen, kind: string, mutate: (body: Buffer, r: Rng) => Buffer) {
  const r = g.r;
  const conn = pickConn(r);
  const { body } = validEventBody(g, r, r.uuid(), { unknownKind: r.chance(0.3) });
  push(g, {
    kind,
    path: tokenPath(conn),
    body: mutate(body, r),
    sign: conn === "signed" ? validSigner(r) : undefined,
    expect: { status: [400] },
  });
}
