import type { Instrumentation } from "next";

/**
 * Runs once when a console server starts: traces when the OTEL_* variables ask for them (lib/telemetry, before
 * any request, so Next's request spans reach the SDK); in production Next's own prints of the errors it catches go
 * to the redacting logger instead (lib/request-errors.ts says why that takes patching console.error); then
 * migrations, the bootstrap admin, background jobs.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await (await import("./lib/telemetry/start")).startTelemetry();
  if (process.env.NODE_ENV === "production") (await import("./lib/request-errors")).quietNextErrorPrints();
  const { startUp } = await import("./lib/startup");
  await startUp();
}

/**
 * An error Next caught while serving a request (a page's render, a route handler), written through
 * lib/logger, in place of Next's own print of it. Server actions still catch their own
 * (lib/server-action.ts), and route handlers answer theirs where they can.
 */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { logRequestError } = await import("./lib/request-errors");
  logRequestError(error, request, context);
};
