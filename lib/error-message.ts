import "server-only";

/*
 * Database errors are recognised by their shape, never with instanceof: the built Next server holds
 * several copies of drizzle's and the drivers' classes, so an instanceof test fails there.
 */
type ErrorLike = Partial<
  Record<"name" | "message" | "code" | "cause" | "constraint" | "table" | "column" | "routine", unknown>
>;

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
  for (
    let e = error;
    e && typeof e === "object" && !chain.includes(e) && chain.length < 32;
    e = (e as ErrorLike).cause
  ) {
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

/** Whether the database refused a row that a unique constraint already holds (SQLSTATE 23505): a name taken. */
export const isUniqueViolation = (error: unknown) => databaseErrorCode(error) === "23505";

/**
 * An error's message for a log or a terminal. A failed query's message carries its SQL and parameters, and the
 * database's may quote a value, so a database error gives only its SQLSTATE and the names of the constraint, table,
 * column and routine. One with no SQLSTATE (ECONNREFUSED, "PGlite is closed") keeps its message: no value reached it.
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
