import "server-only";

import pino from "pino";

import { API_TOKEN_PREFIX } from "@/lib/auth/api-token-format";
import { logLevel } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";

/**
 * One-line JSON logs on standard error (pino), so a CLI's standard output stays its answer: secret-named fields,
 * webhook URL tokens and API token secrets redacted, errors as errorMessage's words, and repeated warn or error lines
 * counted in 10 s windows. docs/operations.md, "The server's log".
 */
const SECRET_FIELD = /key|secret|password|token|authorization|cookie|signature/i;
const REPEAT_WINDOW_MS = 10_000;
const REPEAT_KEY_FIELDS = ["error", "reason"] as const;

type Fields = Record<string, unknown>;
type Level = "info" | "warn" | "error";

/** A word as it may be written in a URL's path: each letter itself or percent-encoded, once or twice (either case). */
const spelled = (word: string) => [...word].map((c) => `(?:${c}|%(?:25)?${c.charCodeAt(0).toString(16)})`).join("");
const SLASHES = "(?:/|%(?:25)?2f|\\\\)+";
/**
 * A webhook URL's path in any spelling Next or a client may give it (percent-encoded letters or slashes, doubled
 * slashes, a malformed escape such as `%zz`): the segment after it is a connection's secret token. A route's
 * pattern (`/api/webhooks/[[...path]]`) is left as it is: no token starts with a bracket.
 */
const WEBHOOK_TOKEN = new RegExp(
  `(${spelled("api")}${SLASHES}${spelled("webhooks")}${SLASHES})(?!\\[)[^\\s/?#"'<>\`,;)\\]}]+`,
  "gi",
);

/** An API token's secret (lib/auth/api-token-format.ts), wherever a line quotes it. */
const API_TOKEN_SECRET = new RegExp(`${API_TOKEN_PREFIX}[A-Za-z0-9_-]+`, "g");

/** A string with every webhook URL's token and every API token's secret replaced. */
export function redactSecretsInText(text: string): string {
  return text.replace(WEBHOOK_TOKEN, "$1[redacted]").replace(API_TOKEN_SECRET, `${API_TOKEN_PREFIX}[redacted]`);
}

function redactValue(value: unknown): unknown {
  if (typeof value === "string") return redactSecretsInText(value);
  if (Array.isArray(value)) return value.map(redactValue);
  // An error's own properties may hold a failed query's SQL and parameters (drizzle's `params`, a
  // driver's `detail`): only what errorMessage says of it is written.
  if (value instanceof Error) return redactSecretsInText(errorMessage(value));
  return value && typeof value === "object" ? redact(value as Fields) : value;
}

/** Fields whose names suggest a secret, at any depth, and a webhook URL's token or an API token in any string. */
export function redact(fields: Fields): Fields {
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, SECRET_FIELD.test(k) ? "[redacted]" : redactValue(v)]),
  );
}

/*
 * pino writes each line synchronously through process.stderr.write (no worker transport), so a line is out before a
 * CLI exits or a crash ends the process, and a test that replaces the write sees it. Fields as docs/operations.md says.
 */
const lines = pino(
  {
    level: logLevel(),
    base: null,
    messageKey: "message",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      // Every line, a repeat count included, passes through the redaction before it is written.
      log: (object) => redact(object),
    },
    // pino's own error serializer would write an error's stack and every property: the redaction above
    // has already turned an error into errorMessage's words, so nothing more happens to it.
    serializers: { err: (value: unknown) => value },
  },
  { write: (line: string) => process.stderr.write(line) },
);

type RepeatWindow = { level: Level; line: Fields; repeated: number; timer: ReturnType<typeof setTimeout> };
const windows = new Map<string, RepeatWindow>();
let exitFlushInstalled = false;

/** True when the line repeats one written in the current window (and is now counted). */
function countRepeat(level: Level, message: string, fields: Fields): boolean {
  const line: Fields = { message };
  for (const name of REPEAT_KEY_FIELDS) if (fields[name] !== undefined) line[name] = fields[name];
  const key = JSON.stringify({ level, ...line });
  const open = windows.get(key);
  if (open) {
    open.repeated++;
    return true;
  }
  const timer = setTimeout(() => closeWindow(key), REPEAT_WINDOW_MS);
  // Unref'd: a pending count never keeps a CLI or a test process alive.
  timer.unref?.();
  windows.set(key, { level, line, repeated: 0, timer });
  if (!exitFlushInstalled && typeof process.on === "function") {
    exitFlushInstalled = true;
    process.on("exit", flushRepeatedLogLines);
  }
  return false;
}

function closeWindow(key: string) {
  const window = windows.get(key);
  if (!window) return;
  clearTimeout(window.timer);
  windows.delete(key);
  if (window.repeated > 0)
    lines[window.level]({ ...window.line, repeated: window.repeated, windowSeconds: REPEAT_WINDOW_MS / 1000 });
}

/** Writes the count of every open window now (on exit, or in a test) and closes them. */
export function flushRepeatedLogLines(): void {
  for (const key of [...windows.keys()]) closeWindow(key);
}

function write(level: Level, message: string, fields: Fields = {}) {
  if (!lines.isLevelEnabled(level)) return;
  if (level !== "info" && countRepeat(level, message, fields)) return;
  // The message goes in with the fields, first, so that it reads before them and is redacted with them.
  lines[level]({ message, ...fields });
}

export const logger = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
