import "server-only";
import type { Instrumentation } from "next";
import { errorMessage, logger } from "@/lib/logger";

type OnRequestError = Parameters<Instrumentation.onRequestError>;

/**
 * One log line for an error Next caught while serving a request (instrumentation.ts's onRequestError). It
 * names the route by its pattern, never the path asked for (a webhook URL's path is its secret token, a
 * query may hold a user id), and gives the error through errorMessage, which keeps a database error's
 * SQLSTATE and names but no value. The digest is what the visitor's error page shows, to find the line.
 */
export function logRequestError(error: OnRequestError[0], request: OnRequestError[1], context: OnRequestError[2]): void {
  const digest = error instanceof Object && "digest" in error && typeof error.digest === "string" ? error.digest : undefined;
  logger.error("request failed", {
    method: request.method,
    route: context.routePath,
    routeType: context.routeType,
    renderSource: context.renderSource,
    digest,
    error: errorMessage(error),
  });
}
