import { z } from "zod";

/**
 * Whether traces are on, from the standard OTEL_* variables (docs/operations.md, "Traces"). Read here and not in
 * lib/env.ts, as single sign-on's are: a wrong setting must not stop the console; it leaves tracing off and is
 * logged once by name. The variables not named here (headers, timeout, sampler, batch sizes) the SDK reads itself.
 */
/** The batch span processor's settings, by their standard names (the SDK reads them only for its own exporters). */
const BATCH = {
  OTEL_BSP_SCHEDULE_DELAY: "scheduledDelayMillis",
  OTEL_BSP_EXPORT_TIMEOUT: "exportTimeoutMillis",
  OTEL_BSP_MAX_QUEUE_SIZE: "maxQueueSize",
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "maxExportBatchSize",
} as const;
const BATCH_VARIABLES = Object.keys(BATCH) as Array<keyof typeof BATCH>;
type BatchOptions = Partial<Record<(typeof BATCH)[keyof typeof BATCH], number>>;

const SWITCHES = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SERVICE_NAME"] as const;
const VARIABLES = [
  ...SWITCHES,
  "OTEL_SDK_DISABLED",
  "OTEL_TRACES_EXPORTER",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
  ...BATCH_VARIABLES,
] as const;

export const DEFAULT_SERVICE_NAME = "tenant-console";

/** The two OTLP/HTTP encodings: protobuf (the specification's default) and JSON. */
export const PROTOCOLS = ["http/protobuf", "http/json"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export type TelemetryConfig = { serviceName: string; protocol: Protocol; batch: BatchOptions };

export type TelemetrySettings =
  | { status: "off" }
  | { status: "invalid"; problems: { variable: string; message: string }[] }
  | { status: "on"; config: TelemetryConfig };

const endpoint = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL (OTLP over HTTP)" })
  .refine(
    (v) => !new URL(v).username && !new URL(v).password,
    "must not hold credentials: use OTEL_EXPORTER_OTLP_HEADERS",
  )
  .optional();
const batchSetting = z.coerce
  .number({ error: "must be a whole number" })
  .int("must be a whole number")
  .min(1, "must be at least 1")
  .max(3_600_000, "must be at most 3600000")
  .optional();
const protocol = z.enum(PROTOCOLS, { error: `must be one of ${PROTOCOLS.join(", ")} (grpc is not supported)` });

const telemetrySchema = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint,
  OTEL_SERVICE_NAME: z.string().trim().min(1).max(200, "must be at most 200 characters").default(DEFAULT_SERVICE_NAME),
  OTEL_TRACES_EXPORTER: z.literal("otlp", { error: 'must be "otlp" (or "none" to turn traces off)' }).optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol.default("http/protobuf"),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol.optional(),
  OTEL_BSP_SCHEDULE_DELAY: batchSetting,
  OTEL_BSP_EXPORT_TIMEOUT: batchSetting,
  OTEL_BSP_MAX_QUEUE_SIZE: batchSetting,
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: batchSetting,
});

type Source = Record<string, string | undefined>;

/** An empty variable counts as unset, as in lib/env.ts. */
function value(source: Source, name: string): string | undefined {
  const v = source[name];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

/** Off unless an endpoint or a service name is set (and neither OTEL_SDK_DISABLED nor OTEL_TRACES_EXPORTER=none). */
export function parseTelemetrySettings(source: Source = process.env): TelemetrySettings {
  const present = Object.fromEntries(VARIABLES.map((name) => [name, value(source, name)]));
  if (SWITCHES.every((name) => present[name] === undefined)) return { status: "off" };
  if (present.OTEL_SDK_DISABLED?.toLowerCase() === "true" || present.OTEL_TRACES_EXPORTER === "none")
    return { status: "off" };
  const result = telemetrySchema.safeParse(present);
  if (!result.success)
    return {
      status: "invalid",
      problems: result.error.issues.map((issue) => ({ variable: String(issue.path[0]), message: issue.message })),
    };
  const s = result.data;
  return {
    status: "on",
    config: {
      serviceName: s.OTEL_SERVICE_NAME,
      protocol: s.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? s.OTEL_EXPORTER_OTLP_PROTOCOL,
      batch: Object.fromEntries(
        BATCH_VARIABLES.filter((name) => s[name] !== undefined).map((name) => [BATCH[name], s[name]]),
      ),
    },
  };
}
