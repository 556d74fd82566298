import { Ajv2020 } from "ajv/dist/2020";
import { expect } from "vitest";

import { openApiDocument } from "@/lib/api-docs/api-docs";

/** What the contract tests share: the document, ajv over its schemas, and the operations each test saw answer. */

export const document = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat(
  "date-time",
  (value: string) =>
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value)),
);
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
ajv.addSchema(document as object, "openapi.json");

type Operation = {
  responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
};
const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
/** Each operation ("get /api/alerts") and the statuses the tests have seen it answer. */
export const seen = new Map<string, Set<number>>();

/**
 * Checks one answer against the document: a documented status, a documented content type, a body its schema accepts.
 */
export async function expectDocumented(method: string, path: string, response: Response): Promise<unknown> {
  const where = `${method} ${path} ${response.status}`;
  const operation = (document.paths?.[path] as Record<string, Operation> | undefined)?.[method];
  expect(operation, `${method} ${path} is in the document`).toBeDefined();
  const documented = operation!.responses[String(response.status)];
  expect(documented, `${where} is documented`).toBeDefined();
  seen.set(`${method} ${path}`, (seen.get(`${method} ${path}`) ?? new Set()).add(response.status));
  for (const header of Object.keys(documented!.headers ?? {})) {
    if (header !== "Content-Disposition" || response.headers.get("content-type") !== "application/json")
      expect(response.headers.get(header), `${where}: ${header}`).not.toBeNull();
  }
  const type = response.headers.get("content-type")?.split(";")[0]?.trim() ?? "";
  expect(Object.keys(documented!.content ?? {}), `${where}: its content type`).toContain(type);
  const text = await response.text();
  if (type !== "application/json") return text;
  const body: unknown = JSON.parse(text);
  const validate = ajv.compile({
    $ref: `openapi.json#/${pointer("paths", path, method, "responses", String(response.status), "content", type, "schema")}`,
  });
  expect(validate(body) ? [] : validate.errors, `${where}: its body`).toEqual([]);
  return body;
}

export const url = (path: string) => `http://127.0.0.1:3000${path}`;
export const get = (path: string) => new Request(url(path));
export const params = <T>(value: T) => ({ params: Promise.resolve(value) });

/** The operations contract-writes.test.ts calls with real API tokens, so contract.test.ts does not. */
export const WRITES_CHECKED_APART = [
  "get /api/destinations",
  "post /api/destinations",
  "patch /api/destinations/{id}",
  "delete /api/destinations/{id}",
  "post /api/destinations/{id}/test",
  "post /api/webhook-events/{id}/forwards",
  "post /api/replays/preview",
  "post /api/replays",
  "post /api/replays/{id}/cancel",
];
