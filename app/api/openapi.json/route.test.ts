import { describe, expect, it } from "vitest";

import { openApiDocument } from "@/lib/api-docs/api-docs";

import { GET } from "./route";

describe("GET /api/openapi.json", () => {
  it("answers the document, without sign-in, cacheable for a short while", async () => {
    const response = GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });
});
