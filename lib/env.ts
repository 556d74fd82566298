import { z } from "zod";

/** Every environment variable the console reads. Nothing else reads process.env. */
const base64Key = z
  .string()
  .refine((v) => Buffer.from(v, "base64").length === 32, "must be 32 bytes encoded as base64");

const optionalUrl = z.string().url().optional();

/** One entry of CONSOLE_FORWARD_ALLOWED_HOSTS: a host as a URL names it, without scheme, port or path. */
const forwardAllowedHost = z.union([z.ipv4(), z.ipv6(), z.hostname()], {
  error: "each entry is a host name or an IP address, without scheme, port or path",
});

export const TRUSTED_PROXY_HOPS_REQUIRED = [
  "must be set in production (0 included): how many proxies in front of the console append to X-Forwarded-For.",
  "    0: none, callers connect straight to the console. The sign-in throttle then counts every caller as one",
  "       address: wrong passwords from anyone can refuse password sign-in to everyone.",
  "    1: one proxy that appends (nginx with $proxy_add_x_forwarded_for, a load balancer).",
  "    2: a load balancer in front of nginx (count each one that appends).",
  '    See "Behind a proxy: the client address" in the README.',
].join("\n");

const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
const logLevelSchema = z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info");

export type LogLevel = z.infer<typeof logLevelSchema>;

/**
 * CONSOLE_LOG_LEVEL alone, for lib/logger.ts. The logger writes before the environment is checked, while
 * it is invalid and about it, so this never throws and reads nothing else: an invalid value means the
 * default here, and env() names it.
 */
export function logLevel(source: Record<string, string | undefined> = process.env): LogLevel {
  const parsed = logLevelSchema.safeParse(source.CONSOLE_LOG_LEVEL || undefined);
  return parsed.success ? parsed.data : "info";
}

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    NEXTAUTH_SECRET: z.string().min(32, "must be at least 32 characters"),
    NEXTAUTH_URL: z.string().url(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    /** PostgreSQL only: connections each instance keeps (see openDatabase in lib/db). */
    DATABASE_POOL_SIZE: z.coerce
      .number()
      .int()
      .min(2, "must be at least 2")
      .max(100, "must be at most 100")
      .default(10),
    /** PostgreSQL only: a statement running longer is cancelled (0 turns the limit off). */
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
    /** PostgreSQL only: how long the startup migration waits for each lock before it gives up (0: as long as it takes). */
    DATABASE_MIGRATION_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
    CONSOLE_DATA_DIR: z.string().min(1).default(".data"),
    CONSOLE_ENCRYPTION_KEY: base64Key,
    CONSOLE_PREVIOUS_ENCRYPTION_KEYS: z
      .string()
      .optional()
      .transform((v) =>
        v
          ? v
              .split(",")
              .map((k) => k.trim())
              .filter(Boolean)
          : [],
      )
      .pipe(z.array(base64Key)),
    CONSOLE_PUBLIC_URL: optionalUrl,
    CONSOLE_WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    /**
     * Hosts a forwarding destination may reach over http and at any address, private ones included
     * (lib/outbound/address-policy.ts): comma-separated, lower-cased, an IPv6 address without brackets.
     */
    CONSOLE_FORWARD_ALLOWED_HOSTS: z
      .string()
      .optional()
      .transform((v) =>
        v
          ? v
              .split(",")
              .map((h) =>
                h
                  .trim()
                  .toLowerCase()
                  .replace(/^\[(.*)\]$/, "$1"),
              )
              .filter(Boolean)
          : [],
      )
      .pipe(z.array(forwardAllowedHost)),
    /**
     * How many proxies in front of the console append to X-Forwarded-For (see lib/auth/client-ip.ts).
     * Required in production (the refinement below); elsewhere unset means 0.
     */
    CONSOLE_TRUSTED_PROXY_HOPS: z.coerce
      .number({ error: "must be a whole number of proxies (0 when none)" })
      .int("must be a whole number of proxies (0 when none)")
      .min(0, "must be a whole number of proxies (0 when none)")
      .max(10, "must be at most 10")
      .optional(),
    /** How long the console waits for one answer from the service before a page says it did not answer. */
    SERVICE_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(500, "must be at least 500")
      .max(60_000, "must be at most 60000")
      .default(10_000),
    SERVICE_BASE_URL_US: optionalUrl,
    SERVICE_BASE_URL_EU: optionalUrl,
    SERVICE_BASE_URL_AU: optionalUrl,
    SERVICE_BASE_URL_CA: optionalUrl,
    /** Alerts (lib/alerts): how often the evaluator runs, and the silence threshold of a connection that sets none. */
    CONSOLE_ALERT_EVALUATE_SECONDS: z.coerce
      .number()
      .int()
      .min(2, "must be at least 2")
      .max(3_600, "must be at most 3600")
      .default(60),
    CONSOLE_ALERT_SILENCE_HOURS: z.coerce
      .number()
      .int()
      .min(1, "must be at least 1")
      .max(72, "must be at most 72")
      .default(2),
    /**
     * How long an alert whose condition has cleared stays open before it resolves (the flap hold: a
     * condition that comes back within it sends no second notice). 15 min; a demo's recording may shorten it.
     */
    CONSOLE_ALERT_HOLD_SECONDS: z.coerce
      .number()
      .int()
      .min(0, "must be at least 0")
      .max(86_400, "must be at most 86400")
      .default(900),
    /**
     * The stop (server.mjs, docs/operations.md "Stopping and upgrading"): how long after SIGTERM the server goes on
     * serving while readiness says 503, so a load balancer sees it first; and by when, from SIGTERM, it has exited.
     */
    CONSOLE_SHUTDOWN_DELAY_SECONDS: z.coerce
      .number()
      .int()
      .min(0, "must be at least 0")
      .max(60, "must be at most 60")
      .default(5),
    // Below a forward's 60 s lease (lib/destinations/outbox.ts): a stop gives back the leases it still holds, which
    // must not have run out and been taken by another instance meanwhile.
    CONSOLE_SHUTDOWN_GRACE_SECONDS: z.coerce
      .number()
      .int()
      .min(2, "must be at least 2")
      .max(55, "must be at most 55")
      .default(25),
    /**
     * Where alert notices are posted (comma-separated), each signed with CONSOLE_ALERT_WEBHOOK_SECRET (Standard
     * Webhooks).
     */
    CONSOLE_ALERT_WEBHOOK_URLS: z
      .string()
      .optional()
      .transform((v) =>
        v
          ? v
              .split(",")
              .map((u) => u.trim())
              .filter(Boolean)
          : [],
      )
      .pipe(z.array(z.url({ protocol: /^https?$/, error: "each entry is an http(s) URL" }))),
    CONSOLE_ALERT_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]+=*$/, "must be a Standard Webhooks secret: whsec_ and base64")
      .optional(),
    /** Alert notices by email: the SMTP server (smtp:// or smtps://, credentials in the URL) and the recipients. */
    CONSOLE_SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
    CONSOLE_ALERT_EMAIL_TO: z
      .string()
      .optional()
      .transform((v) =>
        v
          ? v
              .split(",")
              .map((a) => a.trim())
              .filter(Boolean)
          : [],
      )
      .pipe(z.array(z.email({ error: "each entry is an email address" }))),
    CONSOLE_ALERT_EMAIL_FROM: z.email().default("tenant-console@localhost"),
    /** Read by `npm run connections -- add` only, so keys never appear in a command line. */
    CONSOLE_MANAGEMENT_KEY: z.string().min(1).optional(),
    CONSOLE_SERVER_SECRET_KEY: z.string().min(1).optional(),
    /** What the log writes: lines below this level are left out (pino's levels). */
    CONSOLE_LOG_LEVEL: logLevelSchema,
    /** An operator's bearer token for GET /api/metrics (Prometheus), beside API tokens with the metrics scope. */
    CONSOLE_METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
    CONSOLE_BOOTSTRAP_ADMIN_EMAIL: z.string().email().optional(),
    CONSOLE_BOOTSTRAP_ADMIN_PASSWORD: z.string().min(12, "must be at least 12 characters").optional(),
  })
  .refine((e) => e.CONSOLE_SHUTDOWN_GRACE_SECONDS >= e.CONSOLE_SHUTDOWN_DELAY_SECONDS + 2, {
    path: ["CONSOLE_SHUTDOWN_GRACE_SECONDS"],
    message: "must be at least CONSOLE_SHUTDOWN_DELAY_SECONDS + 2: the stop needs time after the delay",
  })
  .refine((e) => !e.CONSOLE_BOOTSTRAP_ADMIN_EMAIL === !e.CONSOLE_BOOTSTRAP_ADMIN_PASSWORD, {
    path: ["CONSOLE_BOOTSTRAP_ADMIN_PASSWORD"],
    message: "CONSOLE_BOOTSTRAP_ADMIN_EMAIL and CONSOLE_BOOTSTRAP_ADMIN_PASSWORD are set together",
  })
  .refine((e) => e.CONSOLE_ALERT_WEBHOOK_URLS.length === 0 || e.CONSOLE_ALERT_WEBHOOK_SECRET, {
    path: ["CONSOLE_ALERT_WEBHOOK_SECRET"],
    message: "must be set when CONSOLE_ALERT_WEBHOOK_URLS is: every notice is signed",
  })
  .refine((e) => !e.CONSOLE_SMTP_URL === (e.CONSOLE_ALERT_EMAIL_TO.length === 0), {
    path: ["CONSOLE_ALERT_EMAIL_TO"],
    message: "CONSOLE_SMTP_URL and CONSOLE_ALERT_EMAIL_TO are set together",
  })
  // No default in production: 0 makes every caller one address for the sign-in throttle, so wrong passwords
  // from anyone can refuse password sign-in to everyone. That has to be a choice, not an oversight.
  .refine((e) => e.NODE_ENV !== "production" || e.CONSOLE_TRUSTED_PROXY_HOPS !== undefined, {
    path: ["CONSOLE_TRUSTED_PROXY_HOPS"],
    message: TRUSTED_PROXY_HOPS_REQUIRED,
  })
  .transform((e) => ({ ...e, CONSOLE_TRUSTED_PROXY_HOPS: e.CONSOLE_TRUSTED_PROXY_HOPS ?? 0 }));

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses an environment; the message names each bad variable but never echoes its value. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(environment)"}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Env | undefined;

/** The validated environment of this process, parsed once on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Parses the environment again on next use (a test that sets a variable after env() has been read). */
export function reloadEnv(): void {
  cached = undefined;
}
