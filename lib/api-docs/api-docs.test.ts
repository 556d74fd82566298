import fs from "node:fs";
import path from "node:path";

import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";

import { openApiDocument } from "./api-docs";

const root = path.resolve(__dirname, "../..");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
/** Routes the document leaves out: next-auth's own. */
const UNDESCRIBED = ["/api/auth/[...nextauth]"];
/** A catch-all folder stands for the one path the document gives it (anything else under it is a 404). */
const CATCH_ALL: Record<string, string> = { "/api/webhooks/[[...path]]": "/api/webhooks/{token}" };

/** The HTTP methods a route file exports: `export function GET`, `export const GET =`, `export { x as GET }`. */
function exportedMethods(source: string): string[] {
  const names = [...source.matchAll(/export\s+(?:async\s+)?(?:function|const)\s+([A-Z]+)\b/g)].map((m) => m[1]!);
  for (const list of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    names.push(
      ...list[1]!.split(",").map((part) =>
        part
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
      ),
    );
  }
  return names.filter((name) => METHODS.includes(name));
}

/** Every app/api route file as the document's path (`[id]` → `{id}`) with the methods it exports. */
function routeFiles(): Array<{ path: string; methods: string[] }> {
  const api = path.join(root, "app/api");
  return fs
    .readdirSync(api, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => `/api/${path.dirname(file).split(path.sep).join("/")}`)
    .filter((route) => !UNDESCRIBED.includes(route))
    .map((route) => {
      if (route.includes("[...") || route.includes("[[...")) {
        if (!CATCH_ALL[route])
          throw new Error(`${route}: a catch-all route; name the path the document gives it in CATCH_ALL`);
      }
      const documented = CATCH_ALL[route] ?? route.replace(/\[([^\]]+)\]/g, "{$1}");
      return {
        path: documented,
        methods: exportedMethods(fs.readFileSync(path.join(root, "app", route, "route.ts"), "utf8")).sort(),
      };
    });
}

const documentedMethods = (item: object) =>
  Object.keys(item)
    .map((key) => key.toUpperCase())
    .filter((key) => METHODS.includes(key))
    .sort();

describe("the OpenAPI document", () => {
  it("validates as OpenAPI 3.1", async () => {
    const result = await new Validator().validate(
      structuredClone(openApiDocument()) as unknown as Record<string, unknown>,
    );
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("describes every method of every route under app/api (next-auth's aside), and nothing else", () => {
    const document = openApiDocument();
    const routes = routeFiles();
    expect(routes.length).toBeGreaterThan(5);
    const described = Object.fromEntries(
      Object.entries(document.paths ?? {}).map(([p, item]) => [p, documentedMethods(item)]),
    );
    expect(described).toEqual(Object.fromEntries(routes.map((route) => [route.path, route.methods])));
  });

  it("reads the methods a route file exports in each of its forms", () => {
    expect(
      exportedMethods(
        "export const GET = f;\nexport async function POST() {}\nexport function PUT() {}\nexport { handler as PATCH, DELETE };\nexport const dynamic = 1;",
      ),
    ).toEqual(["GET", "POST", "PUT", "PATCH", "DELETE"]);
  });

  it("says how each operation is reached: a role's both ways in and its statuses, or no sign-in; and every status its body", () => {
    for (const [route, item] of Object.entries(openApiDocument().paths ?? {})) {
      for (const [method, operation] of Object.entries(
        item as Record<
          string,
          { security?: object[]; responses: Record<string, { content?: object }>; "x-required-role"?: string }
        >,
      )) {
        // A route with a role takes a session or a token; one with none (the receiver, health) says so with `security:
        // []`.
        expect(operation.security, `${method} ${route}`).toBeDefined();
        for (const scheme of operation.security!.flatMap(Object.keys))
          expect(["bearerAuth", "sessionCookie"]).toContain(scheme);
        if (operation["x-required-role"]) {
          expect(["support", "admin"], `${method} ${route}`).toContain(operation["x-required-role"]);
          expect(operation.security, `${method} ${route}`).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
          expect(Object.keys(operation.responses), `${method} ${route}`).toEqual(
            expect.arrayContaining(["200", "401", "403", "429", "503"]),
          );
        }
        for (const [status, response] of Object.entries(operation.responses))
          expect(response.content, `${method} ${route} ${status}`).toBeDefined();
      }
    }
  });
});
