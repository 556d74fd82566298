import fs from "node:fs";
import path from "node:path";

import { openApiDocument } from "@/lib/api-docs/api-docs";
import { routeReference, withRouteReference } from "@/lib/api-docs/reference";

import { defineCli } from "./cli";

/** Rewrites the route reference in docs/api.md from the OpenAPI document (the rest of the file is left as written). */
defineCli(import.meta.url, "Usage: npm run docs:api", async (_argv, io) => {
  const file = path.resolve(import.meta.dirname, "../docs/api.md");
  const before = fs.readFileSync(file, "utf8");
  const after = withRouteReference(before, routeReference(openApiDocument()));
  if (after === before) return io.print("docs/api.md: the route reference is up to date.");
  fs.writeFileSync(file, after);
  io.print("docs/api.md: the route reference was rewritten from the OpenAPI document.");
});
