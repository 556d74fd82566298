import type { Instrumentation } from "next";

/** Runs once when a console server starts: migrations, the bootstrap admin, background jobs. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startUp } = await import("./lib/startup");
  await startUp();
}

/**
 * An error Next caught while serving a request (a page's render, a route handler), written through
 * lib/logger. Next has printed the error itself by then, whole: server actions therefore catch their own
 * (lib/server-action.ts), and route handlers answer theirs, so a database error's parameters never get here.
 */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { logRequestError } = await import("./lib/request-errors");
  logRequestError(error, request, context);
};
