import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { openApiDocument } from "./api-docs";
import { REFERENCE_END, REFERENCE_START, routeReference, typeWords, withRouteReference } from "./reference";

const apiMd = path.resolve(__dirname, "../../docs/api.md");

describe("docs/api.md's route reference", () => {
  it("is what `npm run docs:api` writes from the document now (run it after changing a route)", () => {
    const text = fs.readFileSync(apiMd, "utf8");
    expect(withRouteReference(text, routeReference(openApiDocument()))).toBe(text);
  });

  it("names every operation and every shape of the document", () => {
    const reference = routeReference(openApiDocument());
    for (const [route, item] of Object.entries(openApiDocument().paths ?? {})) {
      for (const method of Object.keys(item as object))
        expect(reference).toMatch(new RegExp(`${method.toUpperCase()}[^\\n]*${route.replace(/[{}]/g, "\\$&")}`));
    }
    for (const name of Object.keys(openApiDocument().components?.schemas ?? {}))
      expect(reference).toContain(`#### ${name}\n`);
  });

  it("replaces only what lies between its markers", () => {
    const text = `before\n${REFERENCE_START}\nold\n${REFERENCE_END}\nafter\n`;
    expect(withRouteReference(text, "new")).toBe(`before\n${REFERENCE_START}\n\nnew\n\n${REFERENCE_END}\nafter\n`);
    expect(() => withRouteReference("no markers", "new")).toThrow(/markers/);
  });

  it("says a type in a few words", () => {
    expect(typeWords({ type: ["string", "null"], format: "date-time" })).toBe("date-time or null");
    expect(typeWords({ type: "array", items: { $ref: "#/components/schemas/WebhookEvent" } })).toBe(
      "[WebhookEvent](#webhookevent) array",
    );
    expect(typeWords({ type: "integer", minimum: 1, maximum: 200 })).toBe("integer (≥ 1, ≤ 200)");
    expect(typeWords({ enum: ["csv", "ndjson"] })).toBe("`csv`, `ndjson`");
  });
});
