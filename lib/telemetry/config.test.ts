import { describe, expect, it } from "vitest";

import { parseTelemetrySettings } from "./config";

describe("the OTEL_* settings", () => {
  it.each([
    ["nothing set", {}],
    ["only a protocol and batch settings", { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "10" }],
    ["an empty endpoint", { OTEL_EXPORTER_OTLP_ENDPOINT: " " }],
    ["OTEL_SDK_DISABLED", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" }],
    ["OTEL_TRACES_EXPORTER=none", { OTEL_SERVICE_NAME: "console", OTEL_TRACES_EXPORTER: "none" }],
  ])("leaves traces off with %s", (_, source) => {
    expect(parseTelemetrySettings(source)).toEqual({ status: "off" });
  });

  it.each([
    ["an endpoint", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }],
    ["a traces endpoint", { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://collector.example.com/v1/traces" }],
    ["a service name", { OTEL_SERVICE_NAME: "tenant-console" }],
  ])("turns traces on with %s, protobuf over HTTP and the default name unless told", (_, source) => {
    expect(parseTelemetrySettings(source)).toEqual({
      status: "on",
      config: { serviceName: "tenant-console", protocol: "http/protobuf", batch: {} },
    });
  });

  it("takes the traces protocol over the general one, and the batch settings by their standard names", () => {
    const settings = parseTelemetrySettings({
      OTEL_SERVICE_NAME: "console-eu",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "500",
      OTEL_BSP_MAX_QUEUE_SIZE: "4096",
    });
    expect(settings).toEqual({
      status: "on",
      config: {
        serviceName: "console-eu",
        protocol: "http/json",
        batch: { scheduledDelayMillis: 500, maxQueueSize: 4096 },
      },
    });
  });

  it("names each wrong variable, never its value, and leaves traces off", () => {
    const settings = parseTelemetrySettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "https://user:hunter2@collector.example.com",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      OTEL_BSP_SCHEDULE_DELAY: "soon",
    });
    expect(settings.status).toBe("invalid");
    if (settings.status !== "invalid") return;
    expect(settings.problems.map((p) => p.variable).sort()).toEqual([
      "OTEL_BSP_SCHEDULE_DELAY",
      "OTEL_EXPORTER_OTLP_ENDPOINT",
      "OTEL_EXPORTER_OTLP_PROTOCOL",
    ]);
    expect(JSON.stringify(settings)).not.toContain("hunter2");
  });
});
