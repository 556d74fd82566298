import "server-only";

import type { Instrumentation } from "next";

import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { processSingleton } from "@/lib/process-singleton";

type OnRequestError = Parameters<Instrumentation.onRequestError>;

/**
 * One log line for an error Next caught while serving a request (instrumentation.ts's onRequestError): the route by
 * its pattern, never the path asked for (a webhook URL's path is its token), the error through errorMessage, and
 * the digest the visitor's error page shows, to find the line.
 */
export function logRequestError(
  error: OnRequestError[0],
  request: OnRequestError[1],
  context: OnRequestError[2],
): void {
  if (error instanceof Object) claimPrinted(error);
  const digest =
    error instanceof Object && "digest" in error && typeof error.digest === "string" ? error.digest : undefined;
  logger.error("request failed", {
    method: request.method,
    route: context.routePath,
    routeType: context.routeType,
    renderSource: context.renderSource,
    digest,
    error: errorMessage(error),
  });
}

/*
 * Next prints an error it catches whole (a failed query's SQL and parameters among it) before onRequestError, and
 * `next start` cannot be told not to: so those prints, and only those, are taken over here (docs/operations.md,
 * "Next's own error prints").
 */

/**
 * How long a printed error waits for onRequestError (called a few awaits after the print) before it is written
 * alone.
 */
const CLAIM_MS = 1_000;
const waiting = new Map<object, ReturnType<typeof setTimeout>>();

function claimPrinted(error: object): void {
  const timer = waiting.get(error);
  if (timer) clearTimeout(timer);
  waiting.delete(error);
}

const ANSI = /\u001b\[[0-9;]*m/g;
const isNextErrorPrefix = (value: unknown) => typeof value === "string" && value.replace(ANSI, "") === "⨯";
const PROCESS_EVENTS: Record<string, string> = {
  "unhandledRejection:": "unhandled rejection",
  "uncaughtException:": "uncaught exception",
};

/** True when the console.error arguments were Next's print of an error, now handed to the logger instead. */
export function takeOverNextErrorPrint(args: readonly unknown[]): boolean {
  if (!isNextErrorPrefix(args[0])) return false;
  if (args.length === 2 && args[1] instanceof Error) {
    const error = args[1];
    const timer = setTimeout(() => {
      waiting.delete(error);
      logger.error("server error", { error: errorMessage(error) });
    }, CLAIM_MS);
    timer.unref?.();
    waiting.set(error, timer);
    return true;
  }
  const event = typeof args[1] === "string" ? PROCESS_EVENTS[args[1]] : undefined;
  if (args.length === 3 && event) {
    logger.error(event, { error: errorMessage(args[2]) });
    return true;
  }
  return false;
}

/** Installs the take-over on console.error, once per process (instrumentation.ts's register, in production). */
export function quietNextErrorPrints(): void {
  const installed = processSingleton("request-errors.quiet-next-error-prints", () => ({ done: false }));
  if (installed.done) return;
  installed.done = true;
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (!takeOverNextErrorPrint(args)) print(...args);
  };
}
