// The documentation checks itself: every relative link and image resolves (a `#anchor` to a heading),
// the README stays a front door of at most 200 lines, and every repository path written in backticks
// exists. Runs with the unit tests (vitest.config.ts includes docs/**/*.test.ts).
import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** README.md, ARCHITECTURE.md, CONTRIBUTING.md when there is one, and every docs/*.md. */
const files = [
  "README.md",
  "ARCHITECTURE.md",
  ...(fs.existsSync(path.join(root, "CONTRIBUTING.md")) ? ["CONTRIBUTING.md"] : []),
  ...fs
    .readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

type Parsed = {
  /** The text outside fenced code blocks, split into blocks at blank lines (a code span never crosses one). */
  blocks: string[];
  headings: string[];
};

const cache = new Map<string, Parsed>();

function parse(file: string): Parsed {
  const known = cache.get(file);
  if (known) return known;
  const parsed = parseText(fs.readFileSync(path.join(root, file), "utf8"));
  cache.set(file, parsed);
  return parsed;
}

function parseText(text: string): Parsed {
  const lines = text.split("\n");
  const blocks: string[] = [];
  const headings: string[] = [];
  let fence: string | null = null;
  let block: string[] = [];
  const flush = () => {
    if (block.length) blocks.push(block.join("\n"));
    block = [];
  };
  for (const line of lines) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      continue;
    }
    if (marker) {
      flush();
      fence = marker;
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (heading) {
      flush();
      headings.push(heading[1]!);
      blocks.push(heading[1]!);
      continue;
    }
    block.push(line);
  }
  flush();
  return { blocks, headings };
}

const codeSpan = /(`+)([\s\S]*?[^`])\1(?!`)/g;

/** The inline code spans of a block, as written between the backticks. */
function codeSpans(block: string): string[] {
  return [...block.matchAll(codeSpan)].map((m) => m[2]!.replace(/\n/g, " ").trim());
}

/** A heading's anchor as GitHub makes it: the rendered text, lower-cased, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(codeSpan, (_, _ticks, code: string) => code)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "");
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a file offers: each heading's slug (a repeated one gets -1, -2, …) and any HTML id or name. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of parse(file).headings) {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n ? `${base}-${n}` : base);
  }
  const text = fs.readFileSync(path.join(root, file), "utf8");
  for (const m of text.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) result.add(m[1]!);
  return result;
}

/** Every link and image target outside code: `[..](target)`, `![..](target)`, and HTML `src`/`href`. */
function linkTargets({ blocks }: Parsed): string[] {
  const targets: string[] = [];
  for (const block of blocks) {
    const prose = block.replace(codeSpan, "code");
    for (const m of prose.matchAll(/\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]!);
    for (const m of prose.matchAll(/<(?:img|a|source|video)\s[^>]*\b(?:src|href)="([^"]+)"/g)) targets.push(m[1]!);
  }
  return targets;
}

/** What is wrong with one relative link of `file`, or null. */
function brokenLink(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return null; // https:, mailto:
  const hash = target.indexOf("#");
  const pathPart = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const resolved = pathPart ? path.normalize(path.join(path.dirname(file), decodeURIComponent(pathPart))) : file;
  if (resolved.startsWith("..") || path.isAbsolute(resolved)) return `${target}: points outside the repository`;
  if (!fs.existsSync(path.join(root, resolved))) return `${target}: ${resolved} does not exist`;
  if (anchor !== null) {
    if (!resolved.endsWith(".md")) return `${target}: an anchor into a file that is not markdown`;
    if (!anchors(resolved).has(anchor)) return `${target}: no heading in ${resolved} has the anchor #${anchor}`;
  }
  return null;
}

/** The top-level folders whose paths the documentation names in backticks. */
const pathPrefixes = [
  "app/",
  "components/",
  "lib/",
  "e2e/",
  "bench/",
  "scripts/",
  "emulator/",
  "tooling/",
  "docs/",
  "drizzle/",
  ".ci/",
];

/**
 * The repository paths a file names in inline code: each whitespace-separated word of a code span that
 * starts with one of the folders above (so `npx tsx scripts/x.ts --port 1` names scripts/x.ts). Left out,
 * as templates or patterns rather than paths: a word with `<`, `>`, `*`, `{`, `…`, `...` outside a
 * Next.js segment, or `|`. Square brackets stay: `app/api/auth/[...nextauth]/route.ts` is a folder named
 * so. Fenced code blocks are not read: they hold commands and file lists of features yet to be written.
 */
function repoPaths({ blocks }: Parsed): string[] {
  const found: string[] = [];
  for (const block of blocks) {
    for (const span of codeSpans(block)) {
      for (const word of span.split(/\s+/)) {
        if (!pathPrefixes.some((prefix) => word.startsWith(prefix))) continue;
        const withoutSegments = word.replace(/\[\[?(?:\.\.\.)?[\w-]+\]?\]/g, "");
        if (/[<>*{}|…]|\.\.\.|\[|\]/.test(withoutSegments)) continue;
        found.push(word.replace(/[,;]+$/, "").replace(/:\d+(?::\d+)?$/, "")); // `lib/x.ts:42,` names lib/x.ts
      }
    }
  }
  return [...new Set(found)];
}

function missingPath(repoPath: string): string | null {
  const full = path.join(root, repoPath);
  if (!fs.existsSync(full)) return `${repoPath}: does not exist`;
  if (repoPath.endsWith("/") && !fs.statSync(full).isDirectory()) return `${repoPath}: not a folder`;
  return null;
}

describe("the slug of a heading", () => {
  it("is GitHub's", () => {
    expect(slug("Behind a proxy: the client address")).toBe("behind-a-proxy-the-client-address");
    expect(slug("The service client (`lib/service/`)")).toBe("the-service-client-libservice");
    expect(slug("Users, roles and sign-in")).toBe("users-roles-and-sign-in");
    expect(slug("Single sign-on (OpenID Connect)")).toBe("single-sign-on-openid-connect");
    expect(slug("What the console does where the spec is silent, and why")).toBe(
      "what-the-console-does-where-the-spec-is-silent-and-why",
    );
    expect(slug("Rule 2 — one `runAction`")).toBe("rule-2--one-runaction");
  });
});

describe("a relative link", () => {
  it("is read from links, images and HTML, not from code", () => {
    const sample =
      'See [a](a.md), ![b](tour/b.png "B"), <img src="c.png" alt="">, [d](https://d.example) and `[e](e.md)`.\n\n```\n[f](f.md)\n```';
    expect(linkTargets(parseText(sample))).toEqual(["a.md", "tour/b.png", "https://d.example", "c.png"]);
  });

  it("must reach a file, and a heading when it names an anchor", () => {
    expect(brokenLink("docs/page.md", "../README.md#quick-start")).toBeNull();
    expect(brokenLink("docs/page.md", "tour/01-sign-in-1280-light.png")).toBeNull();
    expect(brokenLink("docs/page.md", "https://example.com/x")).toBeNull();
    expect(brokenLink("docs/page.md", "../README.md#no-such-heading")).toMatch(/no heading in README.md/);
    expect(brokenLink("docs/page.md", "docs/tour/01-sign-in-1280-light.png")).toMatch(/does not exist/);
    expect(brokenLink("README.md", "../elsewhere.md")).toMatch(/outside the repository/);
  });
});

describe("repository paths in backticks", () => {
  it("are read from code spans, leaving templates, patterns and code blocks out", () => {
    const sample = [
      "See `lib/env.ts`, `npx tsx scripts/a.ts --port 1`, `bash .ci/run` and `app/api/auth/[...nextauth]/route.ts`.",
      "Not `lib/<feature>/`, `lib/webhooks/*`, `app/(console)/x/{page,error}.tsx`, `bench/results/<part>.json`,",
      "`/api/webhooks/<token>`, `.data/demo`, `lib/x.ts:12` or `lib/a → lib/service, lib/db`.",
      "",
      "```",
      "lib/yet-to-be-written.ts",
      "```",
    ].join("\n");
    expect(repoPaths(parseText(sample))).toEqual([
      "lib/env.ts",
      "scripts/a.ts",
      ".ci/run",
      "app/api/auth/[...nextauth]/route.ts",
      "lib/x.ts",
      "lib/a",
      "lib/service",
      "lib/db",
    ]);
  });
});

describe.each(files)("%s", (file) => {
  it("links only to files that exist, and to headings that exist", () => {
    const broken = linkTargets(parse(file))
      .map((target) => brokenLink(file, target))
      .filter((problem): problem is string => problem !== null);
    expect(broken).toEqual([]);
  });

  it("names in backticks only repository paths that exist", () => {
    const missing = repoPaths(parse(file))
      .map(missingPath)
      .filter((problem): problem is string => problem !== null);
    expect(missing).toEqual([]);
  });

  if (file === "README.md") {
    it("is a front door of at most 200 lines", () => {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      expect(text.replace(/\n$/, "").split("\n").length).toBeLessThanOrEqual(200);
    });
  }
});
