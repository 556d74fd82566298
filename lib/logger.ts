import "server-only";
/**
 * One-line JSON logs on standard error, so a CLI's standard output stays its answer. Fields whose
 * names suggest a secret are replaced before anything is written: a key passed by mistake never
 * reaches a log; so is a webhook URL's token in any text (a message that quotes the path asked for).
 *
 * Repeats: a warn or error line whose level, message, `error` and `reason` fields match one written
 * in the last 10 s is counted, not written; when that window ends one line
 * `{ level, message, error?, reason?, repeated: N, windowSeconds: 10 }` says how many followed. The
 * other fields (eventId, connectionId, requestId, ...) are left out of the match on purpose: they
 * differ on every request, so a storm of "webhook event not stored" would otherwise never collapse;
 * the first line of each window keeps them, which is enough to find the cause. Info lines are never
 * collapsed: each records a distinct fact (a purge ran, a request was answered) and none is written
 * per failure. Pending counts are written when the process exits (best effort).
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
 * A webhook URL's path in any spelling Next or a client may give it (`/api/webhooks/<token>`, percent-encoded
 * letters or slashes, doubled slashes, a malformed escape such as `%zz` in or after the token): the segment
 * after it is a connection's secret token, whatever message quotes it (an error that names the URL asked for).
 * A route's pattern (`/api/webhooks/[[...path]]`) is left as it is: no token starts with a bracket.
 */
const WEBHOOK_TOKEN = new RegExp(`(${spelled("api")}${SLASHES}${spelled("webhooks")}${SLASHES})(?!\\[)[^\\s/?#"'<>\`,;)\\]}]+`, "gi");

/** A string with every webhook URL's token replaced. */
export function redactWebhookTokens(text: string): string {
  return text.replace(WEBHOOK_TOKEN, "$1[redacted]");
}

function redactValue(value: unknown): unknown {
  if (typeof value === "string") return redactWebhookTokens(value);
  if (Array.isArray(value)) return value.map(redactValue);
  return value && typeof value === "object" ? redact(value as Fields) : value;
}

/** Fields whose names suggest a secret, at any depth, and a webhook URL's token in any string. */
export function redact(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, SECRET_FIELD.test(k) ? "[redacted]" : redactValue(v)]));
}

function emit(line: Fields) {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
}

type RepeatWindow = { line: Fields; repeated: number; timer: ReturnType<typeof setTimeout> };
const windows = new Map<string, RepeatWindow>();
let exitFlushInstalled = false;

/** True when the line repeats one written in the current window (and is now counted). */
function countRepeat(level: Level, message: string, fields: Fields): boolean {
  const line: Fields = { level, message };
  for (const name of REPEAT_KEY_FIELDS) if (fields[name] !== undefined) line[name] = fields[name];
  const key = JSON.stringify(line);
  const open = windows.get(key);
  if (open) {
    open.repeated++;
    return true;
  }
  const timer = setTimeout(() => closeWindow(key), REPEAT_WINDOW_MS);
  // Unref'd: a pending count never keeps a CLI or a test process alive.
  timer.unref?.();
  windows.set(key, { line: redact(line), repeated: 0, timer });
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
  if (window.repeated > 0) emit({ ...window.line, repeated: window.repeated, windowSeconds: REPEAT_WINDOW_MS / 1000 });
}

/** Writes the count of every open window now (on exit, or in a test) and closes them. */
export function flushRepeatedLogLines(): void {
  for (const key of [...windows.keys()]) closeWindow(key);
}

function write(level: Level, message: string, fields: Fields = {}) {
  if (level !== "info" && countRepeat(level, message, fields)) return;
  emit({ level, message: redactWebhookTokens(message), ...redact(fields) });
}

export const logger = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};

/*
 * Database errors are recognised by their shape, never with instanceof: the built Next server holds
 * several copies of drizzle's and the drivers' classes, so an instanceof test fails there.
 */
type ErrorLike = Partial<Record<"name" | "message" | "code" | "cause" | "constraint" | "table" | "column" | "routine", unknown>>;

/** A SQLSTATE: five digits or capitals, at least one a digit (Node's EPIPE or EPERM are not one). */
const SQLSTATE = /^(?=.*\d)[0-9A-Z]{5}$/;

/** What each SQLSTATE class means, for the classes a console can meet. */
const SQLSTATE_CLASSES: Record<string, string> = {
  "08": "connection exception",
  "22": "data exception",
  "23": "integrity constraint violation",
  "25": "invalid transaction state",
  "28": "invalid authorization",
  "3D": "database does not exist",
  "40": "transaction rollback",
  "42": "syntax error or access rule violation",
  "53": "insufficient resources",
  "54": "program limit exceeded",
  "57": "operator intervention",
  "58": "system error",
  XX: "internal error",
};

/** The error and its causes, outermost first: iterative, and safe against a cycle. */
function causeChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (let e = error; e && typeof e === "object" && !chain.includes(e) && chain.length < 32; e = (e as ErrorLike).cause) {
    chain.push(e as ErrorLike);
  }
  return chain;
}

function sqlState(e: ErrorLike): string | undefined {
  return typeof e.code === "string" && SQLSTATE.test(e.code) ? e.code : undefined;
}

/** Drizzle's wrapper, whose message is "Failed query: <sql>\nparams: <every parameter>". */
function isFailedQuery(e: ErrorLike): boolean {
  return (
    e.name === "DrizzleQueryError" ||
    (e as object).constructor?.name === "DrizzleQueryError" ||
    ("query" in e && "params" in e) ||
    (typeof e.message === "string" && e.message.includes("Failed query:"))
  );
}

/**
 * The SQLSTATE of a database error, or of the first error in its cause chain that has one (e.g.
 * "22P02"; class "22" means the data was refused, "08" or "57" an outage). Undefined when no database
 * answered: a connection refused or closed has no SQLSTATE.
 */
export function databaseErrorCode(error: unknown): string | undefined {
  for (const e of causeChain(error)) {
    const code = sqlState(e);
    if (code) return code;
  }
  return undefined;
}

/**
 * An error's message for a log or a terminal. A failed query's message carries its SQL and its
 * parameters (a webhook body, an e-mail address, a phone number, a password hash), and the
 * database's own message and detail may quote a value (`invalid input syntax for type uuid: "…"`,
 * `Key (email)=(…)`). So for a database error only safe facts are given: its SQLSTATE and the names
 * of the constraint, table, column and routine involved. An error with no SQLSTATE under drizzle's
 * wrapper (ECONNREFUSED, "Connection terminated", "PGlite is closed") keeps its own short message:
 * it was raised before any parameter reached the database.
 */
export function errorMessage(error: unknown): string {
  const chain = causeChain(error);
  const database = chain.find((e) => sqlState(e));
  if (database) return describeDatabaseError(database);
  const wrapper = chain.findLastIndex(isFailedQuery);
  if (wrapper >= 0) {
    const cause = chain[wrapper + 1];
    return cause ? `database query failed: ${ownMessage(cause)}` : "database query failed";
  }
  return error && typeof error === "object" ? ownMessage(error as ErrorLike) : String(error);
}

function describeDatabaseError(e: ErrorLike): string {
  const code = e.code as string;
  const facts = (["constraint", "table", "column"] as const)
    .filter((name) => typeof e[name] === "string" && e[name])
    .map((name) => `${name} "${e[name] as string}"`);
  if (typeof e.routine === "string" && e.routine) facts.push(`routine ${e.routine}`);
  const meaning = SQLSTATE_CLASSES[code.slice(0, 2)];
  return `database error ${code}${meaning ? `: ${meaning}` : ""}${facts.length ? ` (${facts.join(", ")})` : ""}`;
}

/** Node's AggregateError for a refused connection has an empty message but a code (ECONNREFUSED). */
function ownMessage(e: ErrorLike): string {
  if (typeof e.message === "string" && e.message) return e.message;
  if (typeof e.code === "string" && e.code) return e.code;
  return typeof e.name === "string" && e.name ? e.name : String(e);
}
