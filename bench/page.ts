/**
 * The page part: /webhooks in Chromium (LCP, time until the rows show, at the 75th percentile as web vitals are),
 * and first-load JS per page route (docs/performance.md, "How each part measures").
 * Results: bench/results/page.json.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

import { chromium, type BrowserContext } from "@playwright/test";

import { withDatabase, type ConsoleServer } from "./reliability/server";
import { fetchAs, type Session } from "./reliability/session";
import { signInBenchUser, withConsole } from "./support/console";
import { FULL_EVENTS, sharedDataset, type Dataset } from "./support/dataset";
import { addDestinations } from "./support/forwarding";
import { measuredPart, round, type BackendContext } from "./support/part";
import type { Metric } from "./support/report";

const NAME = "page";
const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 5);
const TARGET_LCP_MS = 1000;
const TARGET_JS_KB = 180;
const TARGETS = {
  lcp: `LCP ≤ ${TARGET_LCP_MS} ms for every filter (75th percentile of ${RUNS} loads)`,
  firstLoadJs: `first-load JS ≤ ${TARGET_JS_KB} kB gzip on every route`,
};

export const pagePart = measuredPart(
  NAME,
  `The log page at ${FULL_EVENTS.toLocaleString("en")} events, and first-load JS per route`,
  TARGETS,
  measure,
);

async function measure(backend: BackendContext) {
  const { dataset } = await sharedDataset(FULL_EVENTS, `${NAME}-${backend.key}`);
  // A destination's page needs one: to the discard port, as the service, so nothing is ever sent anywhere.
  const [destinationId] = await withDatabase(dataset.scenario, () =>
    addDestinations("http://127.0.0.1:9/page-bench", [dataset.connections[0]!.id], { name: "Page bench" }),
  );
  return withConsole(dataset.scenario, async (server) => {
    const session = await signInBenchUser(server);
    const views = {
      "default view": "/webhooks",
      "0-match filter": "/webhooks?verificationMethod=NO_SUCH_METHOD&devicePlatform=IOS",
    };
    const loads: Record<string, PageLoads> = {};
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
    try {
      const context = await browser.newContext();
      await context.addInitScript(OBSERVERS);
      await context.addCookies(
        session.cookie.split("; ").map((pair) => ({
          name: pair.slice(0, pair.indexOf("=")),
          value: pair.slice(pair.indexOf("=") + 1),
          url: server.url,
        })),
      );
      for (const [name, url] of Object.entries(views)) loads[name] = await timeLoads(context, server.url + url);
    } finally {
      await browser.close();
    }
    const scripts = await firstLoadJs(server, session, dataset, destinationId!);
    const metrics: Metric[] = [
      ...Object.entries(loads).flatMap(([name, l]): Metric[] => [
        {
          metric: `LCP, ${name}`,
          value: l.lcp.p75,
          unit: "ms",
          display: `${l.lcp.p75} ms (p50 ${l.lcp.p50}, max ${l.lcp.max})`,
          target: { op: "<=", value: TARGET_LCP_MS },
        },
        {
          metric: `rows visible, ${name}`,
          value: l.rows.p75,
          unit: "ms",
          display: `${l.rows.p75} ms (p50 ${l.rows.p50}, max ${l.rows.max}; ${l.rowCount} rows)`,
        },
      ]),
      ...scripts.map((r): Metric => ({
        metric: `first-load JS ${r.route}`,
        // A page that answers 403 (access denied) still renders, with its scripts.
        value: r.files > 0 ? round(r.gzipBytes / 1000) : null,
        unit: "kB",
        display:
          r.files > 0
            ? `${round(r.gzipBytes / 1000)} kB (${r.files} files${r.status === 200 ? "" : `, HTTP ${r.status}`})`
            : `HTTP ${r.status}, no scripts`,
        target: { op: "<=", value: TARGET_JS_KB },
      })),
    ];
    return { metrics, runs: RUNS, views, loads, firstLoadJs: scripts };
  });
}

type Spread = { p50: number; p75: number; max: number };
type PageLoads = { lcp: Spread; rows: Spread; rowCount: number; samples: Array<{ lcpMs: number; rowsMs: number }> };

/**
 * Set up before the page's own scripts: the latest LCP candidate, and the moment the first log row (or
 * the empty state) is visible. Streamed HTML arrives in hidden containers before React moves it into
 * place, hence the visibility check.
 */
const OBSERVERS = `
  window.__bench = { lcp: null, rowsAt: null, rows: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.lcp = entry.renderTime || entry.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  const visible = (el) => el && el.checkVisibility();
  const check = () => {
    if (window.__bench.rowsAt !== null) return;
    const rows = [...document.querySelectorAll('[data-testid="webhook-event-row"]')].filter(visible);
    const empty = document.evaluate("//*[normalize-space(text())='No webhook events match']", document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
    if (rows.length > 0 || visible(empty)) {
      window.__bench.rowsAt = performance.now();
      window.__bench.rows = rows.length;
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
`;

/**
 * Loads of `url` in a context that runs OBSERVERS; the first is not recorded (the server's first render, cold caches).
 */
async function timeLoads(context: BrowserContext, url: string): Promise<PageLoads> {
  const samples: Array<{ lcpMs: number; rowsMs: number }> = [];
  let rowCount = 0;
  for (let run = 0; run <= RUNS; run++) {
    const page = await context.newPage();
    try {
      await page.goto(url, { waitUntil: "load" });
      await page.waitForFunction(
        () => (window as unknown as { __bench: { rowsAt: number | null } }).__bench.rowsAt !== null,
        undefined,
        { timeout: 30_000 },
      );
      // LCP candidates stop with the last large paint; the rows are the last to arrive.
      await page.waitForTimeout(300);
      const seen = await page.evaluate(
        () => (window as unknown as { __bench: { lcp: number | null; rowsAt: number; rows: number } }).__bench,
      );
      if (seen.lcp === null) throw new Error(`${url}: no largest-contentful-paint entry`);
      rowCount = seen.rows;
      if (run > 0) samples.push({ lcpMs: round(seen.lcp, 0), rowsMs: round(seen.rowsAt, 0) });
    } finally {
      await page.close();
    }
  }
  return { lcp: spread(samples.map((s) => s.lcpMs)), rows: spread(samples.map((s) => s.rowsMs)), rowCount, samples };
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return { p50: at(0.5), p75: at(0.75), max: sorted.at(-1)! };
}

type RouteScripts = { route: string; status: number; files: number; gzipBytes: number; rawBytes: number };

/** The page routes under app/ (route groups left out of the path), a dynamic segment filled from the dataset. */
function pageRoutes(dataset: Dataset, destinationId: string): string[] {
  const routes: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory())
        walk(path.join(dir, entry.name), /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name]);
      else if (entry.name === "page.tsx") routes.push("/" + segments.join("/"));
    }
  };
  walk(path.resolve("app"), []);
  return routes
    .map((route) =>
      route
        .replace("/connections/[id]", `/connections/${dataset.connections[0]!.id}`)
        .replace("/destinations/[id]", `/destinations/${destinationId}`),
    )
    .sort();
}

/** The sign-in pages are read signed out (a signed-in visitor may be sent on); every other one signed in. */
async function firstLoadJs(
  server: ConsoleServer,
  session: Session,
  dataset: Dataset,
  destinationId: string,
): Promise<RouteScripts[]> {
  const signedOut: Session = { cookie: "", email: "" };
  const sizes = new Map<string, { gzip: number; raw: number }>();
  const results: RouteScripts[] = [];
  for (const route of pageRoutes(dataset, destinationId)) {
    const asWho = /^\/(sign-in|set-password|access-denied)/.test(route) ? signedOut : session;
    const html = await fetchAs(asWho, server.url + route);
    // A noModule script (Next's polyfills for old browsers) is never fetched by a browser that runs modules.
    const tags = [...html.body.matchAll(/<script\b[^>]*\ssrc="([^"]+)"[^>]*>/g)].filter(
      (m) => !/\snoModule\b/i.test(m[0]),
    );
    const sources = [...new Set(tags.map((m) => m[1]!.replace(/&amp;/g, "&")))];
    let gzip = 0;
    let raw = 0;
    for (const src of sources) {
      if (!sizes.has(src)) {
        const file = await fetch(new URL(src, server.url));
        const bytes = Buffer.from(await file.arrayBuffer());
        sizes.set(src, { gzip: zlib.gzipSync(bytes).length, raw: bytes.length });
      }
      gzip += sizes.get(src)!.gzip;
      raw += sizes.get(src)!.raw;
    }
    results.push({
      route: route.replace(dataset.connections[0]!.id, "[id]").replace(destinationId, "[id]"),
      status: html.status,
      files: sources.length,
      gzipBytes: gzip,
      rawBytes: raw,
    });
  }
  return results;
}
