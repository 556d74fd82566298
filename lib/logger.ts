import "server-only";
import { DrizzleQueryError } from "drizzle-orm";
/**
 * One-line JSON logs on standard error, so a CLI's standard output stays its answer. Fields whose
 * names suggest a secret are replaced before anything is written: a key passed by mistake never
 * reaches a log.
 */
const SECRET_FIELD = /key|secret|password|token|authorization|cookie|signature/i;

type Fields = Record<string, unknown>;

export function redact(fields: Fields): Fields {
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [
      k,
      SECRET_FIELD.test(k) ? "[redacted]" : v && typeof v === "object" && !Array.isArray(v) ? redact(v as Fields) : v,
    ]),
  );
}

function write(level: "info" | "warn" | "error", message: string, fields: Fields = {}) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...redact(fields) });
  process.stderr.write(`${line}\n`);
}

export const logger = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};

/**
 * An error's message for a log or a terminal. A failed query's message carries its SQL and its
 * parameters (a webhook body, an e-mail address, a password hash), so for those only the database's
 * own message is given.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof DrizzleQueryError) return error.cause instanceof Error ? errorMessage(error.cause) : "database query failed";
  return error instanceof Error ? error.message : String(error);
}
