import { context, propagation, trace } from "@opentelemetry/api";

import { onStop } from "@/lib/lifecycle";
import { logger } from "@/lib/logger";
import { processSingleton } from "@/lib/process-singleton";

import { parseTelemetrySettings } from "./config";
import { setTracingOn } from "./tracing";

/** The started SDK, the process's (instrumentation.ts starts it; the process's stop, lib/lifecycle.ts, or a test ends it). */
const running = processSingleton("telemetry.sdk", () => ({ sdk: null as null | { shutdown(): Promise<void> } }));

/**
 * Starts tracing when the OTEL_* variables ask for it (lib/telemetry/config.ts), else does nothing and imports
 * nothing of the SDK. A wrong setting leaves it off and is logged by variable name. Answers whether it is on.
 */
export async function startTelemetry(source: Record<string, string | undefined> = process.env): Promise<boolean> {
  if (running.sdk) return true;
  const settings = parseTelemetrySettings(source);
  if (settings.status === "off") return false;
  if (settings.status === "invalid") {
    for (const { variable, message } of settings.problems)
      logger.error("traces are off: an OTEL_* variable is invalid", { variable, problem: message });
    return false;
  }
  const { startSdk } = await import("./sdk");
  running.sdk = startSdk(settings.config);
  setTracingOn(true);
  // Last, once the work and the batches are done: what the batch processor holds is exported by the deadline.
  onStop("traces", "close", (deadline) =>
    Promise.race([stopTelemetry(), new Promise<void>((resolve) => setTimeout(resolve, deadline - Date.now()).unref())]),
  );
  logger.info("traces are on", { serviceName: settings.config.serviceName, protocol: settings.config.protocol });
  return true;
}

/** Exports the spans still held, and stops the SDK (a graceful stop; tests flush with it). */
export async function stopTelemetry(): Promise<void> {
  const sdk = running.sdk;
  if (!sdk) return;
  running.sdk = null;
  setTracingOn(false);
  await sdk.shutdown();
  // The API's globals go too, so that a later start (a test's) registers afresh.
  trace.disable();
  propagation.disable();
  context.disable();
}
