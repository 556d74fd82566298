import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/*
 * A route's first load carries the client code of each segment's loading.tsx as an entry of its own, and Turbopack
 * puts a module that the loading state and its page both reach in both their chunks: the browser gets it twice
 * (docs/performance.md, "Client scripts"). So a loading state reaches no client module ("use client"), through any
 * chain of imports, but those named here with why.
 */
const root = path.resolve(import.meta.dirname, "../..");
const allowed: Record<string, string> = {
  "components/ui/link.tsx": "the console's layout loads it already: a nested entry gets no copy of it",
  "components/ui/button.tsx": "the console's layout loads it already: a nested entry gets no copy of it",
};
/*
 * Loading states that show a live control of their page (its Add or Create button works while the list loads). With
 * the list's skeleton apart from the list, Turbopack sent that button and its form library twice (team +5.4 kB,
 * tokens +4.6 kB on 2026-12-03): with both from the list's module, the two share one chunk.
 */
const withLiveControl: Record<string, string> = {
  "app/(console)/team/loading.tsx": "the Add button (components/team/add-team-member.tsx)",
  "app/(console)/tokens/loading.tsx": "the Create button (components/tokens/create-token.tsx)",
};

function resolveImport(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith("@/")
    ? path.join(root, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : undefined;
  if (!base) return undefined; // a package: its client code is shared with the page's in one chunk
  return ["", ".tsx", ".ts", "/index.tsx", "/index.ts"]
    .map((ext) => base + ext)
    .find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

/** The client modules `file` reaches, each with the chain of imports that reaches it. */
function clientModulesReached(file: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = (current: string, chain: string[]) => {
    if (seen.has(current)) return;
    seen.add(current);
    const source = fs.readFileSync(current, "utf8");
    const relative = path.relative(root, current);
    if (/^\s*["']use client["']/.test(source)) {
      if (!(relative in allowed)) found.push([...chain, relative].join(" → "));
      return; // what a client module imports is client code too, already counted with it
    }
    for (const [, specifier] of source.matchAll(/^import\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)) {
      const target = resolveImport(current, specifier!);
      if (target) visit(target, [...chain, relative]);
    }
  };
  visit(file, []);
  return found;
}

const loadingStates = (fs.readdirSync(path.join(root, "app"), { recursive: true }) as string[])
  .filter((file) => path.basename(file) === "loading.tsx")
  .map((file) => path.join("app", file))
  .sort();

describe("loading states", () => {
  it("finds the loading states", () => {
    expect(loadingStates.length).toBeGreaterThan(10);
    // An exception outlives no loading state: a moved or removed one is checked (or named again).
    expect(loadingStates).toEqual(expect.arrayContaining(Object.keys(withLiveControl)));
  });

  it.each(loadingStates.filter((file) => !(file in withLiveControl)))(
    "%s reaches no client module but those allowed",
    (file) => {
      expect(clientModulesReached(path.join(root, file))).toEqual([]);
    },
  );
});
