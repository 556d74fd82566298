import { MAX_BODY_BYTES, type PathSpec, type Tokens } from "./case";
import {
  literalPath,
  marker,
  paddedEventBody,
  pickConn,
  push,
  tokenPath,
  validEventBody,
  validSigner,
  type Weighted,
} from "./generator";

/** The request around the body: its content type, its size, its path, its method. */
export const REQUEST_CASES: Weighted[] = [
  // ----- content type -----
  {
    kind: "contentType.notJson",
    weight: 3,
    gen: (g) => {
      const r = g.r;
      const ct = r.pick([
        null,
        "",
        "text/plain",
        "text/json",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
        "application/jsonp",
        "application/json-seq",
        "application/json5",
        "json",
        "*/*",
        "application/octet-stream",
        "text/html; charset=utf-8",
        "application/json+xml",
      ]);
      const conn = pickConn(r);
      const { body } = validEventBody(g, r, r.uuid());
      push(g, {
        kind: "contentType.notJson",
        path: tokenPath(conn),
        body,
        contentType: ct,
        sign: conn === "signed" ? validSigner(r) : undefined,
        expect: { status: [415] },
      });
    },
  },

  // ----- sizes -----
  {
    kind: "size.overLimit",
    weight: 1.5,
    gen: (g) => {
      const r = g.r;
      const conn = pickConn(r);
      const size = r.chance(0.1)
        ? r.range(1_000_000, 3_000_000)
        : r.pick([MAX_BODY_BYTES + 1, MAX_BODY_BYTES + 2, MAX_BODY_BYTES + r.range(3, 70_000)]);
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
        {
          label: "/api/webhooks/{signed, upper-cased}",
          make: (t: Tokens) =>
            `/api/webhooks/${t.signed.toUpperCase() === t.signed ? "X" + t.signed : t.signed.toUpperCase()}`,
        },
        { label: "/api/webhooks/{unsigned}x", make: (t: Tokens) => `/api/webhooks/${t.unsigned}x` },
        { label: "/api/webhooks/{signed minus 1}", make: (t: Tokens) => `/api/webhooks/${t.signed.slice(0, -1)}` },
        { label: "/api/webhooks/{signed}%2Fx", make: (t: Tokens) => `/api/webhooks/${t.signed}%2Fx` },
        { label: "/api/webhooks/{unsigned};x=1", make: (t: Tokens) => `/api/webhooks/${t.unsigned};x=1` },
      ]);
      const ct = r.chance(0.2) ? "text/plain" : "application/json";
      push(g, {
        kind: "path.unknownToken",
        path,
        body,
        contentType: ct,
        sign: validSigner(r),
        expect: { status: [404] },
      });
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
