import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace";

import type { TelemetryConfig } from "./config";
import { RedactingSpanProcessor } from "./redact";

/**
 * The OpenTelemetry Node SDK for traces only, imported by start.ts only when tracing is on. The exporter reads the
 * endpoint, headers and timeout from OTEL_EXPORTER_OTLP_*, the SDK the sampler and resource attributes; config.ts
 * reads the batch processor's OTEL_BSP_*. Only W3C trace context propagates: baggage from a caller would otherwise reach destinations.
 */
export function startSdk(config: TelemetryConfig): NodeSDK {
  const exporter = config.protocol === "http/json" ? new JsonExporter() : new ProtobufExporter();
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    textMapPropagator: new W3CTraceContextPropagator(),
    // Redaction first: it rewrites a span's attributes as it starts, before the batch processor holds it.
    spanProcessors: [new RedactingSpanProcessor(), new BatchSpanProcessor({ exporter, ...config.batch })],
    // Traces only: metrics are Prometheus's (GET /api/metrics), logs are pino's.
    metricReaders: [],
    logRecordProcessors: [],
    // Next makes each request's spans itself; no library is patched.
    instrumentations: [],
  });
  sdk.start();
  return sdk;
}
