import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

import { clientRoutes } from "./client-api";
import type { RegionContext } from "./context";
import { controlRoutes } from "./control";
import { ApiError, errorReply, sendReply, type Reply } from "./http";
import { managementRoutes } from "./management";
import { dispatch, type Route } from "./routing";
import { parseSeed, type Region, type Seed } from "./seed";
import { serverRoutes } from "./server-api";
import type { StoryOptions } from "./story";
import { EmulatorWorld } from "./world";

export { loadSeedFile, parseSeed, REGIONS } from "./seed";
export type { ParsedSeed, Region, Seed } from "./seed";
export { STORY_INCIDENTS } from "./story";
export type { StoryOptions } from "./story";

export const CONTROL_PREFIX = "/_emulator";
const REGION_PATH = /^\/(us|eu|au|ca)\/v1(\/.*)?$/;
const LOOPBACK_ADDRESSES = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

export interface StartEmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  seed: Seed;
  /** Default 127.0.0.1; the image's demo (compose.yaml) listens on 0.0.0.0. The control API answers loopback only. */
  host?: "127.0.0.1" | "0.0.0.0";
  /** Sweep expiries and send due webhooks on a real-time timer (default true; tests turn it off). */
  backgroundTick?: boolean;
  tickIntervalMs?: number;
  /** Per-attempt webhook timeout in real milliseconds (default 10 000). */
  webhookTimeoutMs?: number;
}

export interface RunningEmulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `url + "/us/v1"` etc. */
  baseUrl(region: Region): string;
  /** Runs the expiry sweep and due deliveries now, as the background tick would. */
  runDueWork(): Promise<void>;
  /** Starts the background tick of an emulator started without one (idempotent). */
  startBackgroundTick(): void;
  /** Starts the demo story (story.ts) now, over every tenant; it plays as the virtual clock passes. */
  startStory(options?: StoryOptions): void;
  close(): Promise<void>;
}

/** A regional sub-API and the prefix below `{base}` that selects it. */
const REGIONAL_APIS: Array<{ prefix: string; routes: Route<RegionContext>[] }> = [
  { prefix: "/management", routes: managementRoutes },
  { prefix: "/client", routes: clientRoutes },
  { prefix: "", routes: serverRoutes },
];

type Outcome = Reply | "hang";

async function routeRegional(
  world: EmulatorWorld,
  req: IncomingMessage,
  url: URL,
  region: Region,
  path: string,
): Promise<Outcome> {
  const fault = world.faults.take(region);
  if (fault?.mode === "hang") return "hang";
  if (fault?.mode === "500") throw new ApiError(500, "internal_error", "Injected fault.");
  if (fault?.mode === "429") {
    throw new ApiError(429, "too_many_requests", "Injected fault.", { "Retry-After": String(fault.retryAfterSeconds) });
  }
  const api = REGIONAL_APIS.find(({ prefix }) => prefix === "" || path === prefix || path.startsWith(`${prefix}/`));
  if (!api) throw new ApiError(404, "not_found", `No resource at ${url.pathname}.`);
  return dispatch(api.routes, req.method ?? "GET", path.slice(api.prefix.length), { world, region, req, url });
}

async function route(world: EmulatorWorld, req: IncomingMessage, url: URL): Promise<Outcome> {
  const path = url.pathname;
  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
    if (!LOOPBACK_ADDRESSES.has(req.socket.remoteAddress ?? "")) {
      throw new ApiError(403, "forbidden", "The control API answers loopback callers only.");
    }
    // Loopback is not enough: a web page open in a developer's browser could post here too (a simple
    // request needs no preflight). Browsers say so with Origin or Sec-Fetch-Site; tools and tests do not.
    if (isFromWebPage(req)) {
      throw new ApiError(403, "forbidden", "The control API does not answer requests made by web pages.");
    }
    return dispatch(controlRoutes, req.method ?? "GET", path.slice(CONTROL_PREFIX.length), { world, req, url });
  }
  const match = REGION_PATH.exec(path);
  if (!match?.[1]) throw new ApiError(404, "not_found", `No resource at ${path}.`);
  return routeRegional(world, req, url, match[1] as Region, match[2] ?? "/");
}

function isFromWebPage(req: IncomingMessage): boolean {
  const site = req.headers["sec-fetch-site"];
  return req.headers.origin !== undefined || (site !== undefined && site !== "none");
}

function startBackgroundTick(world: EmulatorWorld, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    world
      .runDueWork()
      .catch((error: unknown) => console.error("emulator: background work failed", error))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export async function startEmulator(options: StartEmulatorOptions): Promise<RunningEmulator> {
  const world = new EmulatorWorld(parseSeed(options.seed), { webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000 });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    route(world, req, url)
      .catch((error: unknown) => {
        if (error instanceof ApiError) return errorReply(error);
        console.error("emulator: request failed", error);
        return errorReply(new ApiError(500, "internal_error", "Unexpected emulator error."));
      })
      .then((outcome) => {
        // A hanging request is answered never; its socket stays open until the client gives up.
        if (outcome !== "hang") sendReply(res, outcome);
      });
  });
  // Longer than any client keeps an idle connection (Node's fetch: 4 s), so that the client, never the
  // server, ends it: a server ending one as a client sends on it answers ECONNRESET, which a starved test
  // thread (its 4 s timer late) met once in CI, on the first call of a test after the file's previous one.
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  let stopTick: (() => void) | undefined;
  const startTick = () => {
    stopTick ??= startBackgroundTick(world, options.tickIntervalMs ?? 250);
  };
  if (options.backgroundTick !== false) startTick();
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrl: (region) => `${url}/${region}/v1`,
    runDueWork: () => world.runDueWork(),
    startBackgroundTick: startTick,
    startStory: (storyOptions) => {
      world.startStory(storyOptions);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        stopTick?.();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
