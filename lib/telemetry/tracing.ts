import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from "@opentelemetry/api";

import { processSingleton } from "@/lib/process-singleton";

/**
 * The console's own spans (docs/operations.md, "Traces"). While tracing is off every helper here returns at its first
 * line, before any of @opentelemetry/api's no-op machinery (docs/performance.md, "Traces"); start.ts turns it on.
 */
const state = processSingleton("telemetry.tracing", () => ({ on: false }));

/** Marks tracing on or off for this process: start.ts, once the SDK is registered (and tests). */
export function setTracingOn(on: boolean): void {
  state.on = on;
}

export const tracingOn = (): boolean => state.on;

/** What the fn of a span may add: attributes once known (an outcome, a status). Does nothing while tracing is off. */
export type SpanHandle = { setAttributes(attributes: Attributes): void };
const OFF: SpanHandle = { setAttributes: () => {} };

export type SpanOptions = {
  kind?: SpanKind;
  /**
   * A W3C traceparent to make the span a child of in place of the active context (a queued delivery's receipt); null
   * starts a trace of its own (a worker's context may be a receipt's, through the wake-up that storing set off).
   */
  parent?: string | null;
};

const TRACER = "tenant-console";

/**
 * Runs `fn` in a span named `name`, ended when it settles; a throw marks it an error (by the error's name only: a
 * message may hold a value). Attributes must hold no secret, body, user id, email or phone number.
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: SpanHandle) => Promise<T>,
  options: SpanOptions = {},
): Promise<T> {
  if (!state.on) return fn(OFF);
  const parent =
    options.parent === undefined
      ? context.active()
      : options.parent === null
        ? ROOT_CONTEXT
        : propagation.extract(ROOT_CONTEXT, { traceparent: options.parent });
  return trace
    .getTracer(TRACER)
    .startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, parent, async (span: Span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "thrown" });
        throw error;
      } finally {
        span.end();
      }
    });
}

/** The active span's W3C traceparent, to carry with work done later (a queued delivery); null while off or outside. */
export function currentTraceParent(): string | null {
  if (!state.on) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The `traceparent` header of the active span for an outgoing request; none while tracing is off. */
export function traceHeaders(): Record<string, string> {
  const traceparent = currentTraceParent();
  return traceparent ? { traceparent } : {};
}

export { SpanKind };
