import { DrizzleQueryError, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { setUpTestDatabase, unreachableDatabase } from "@/lib/testing/database";
import { captureLogLines } from "@/lib/testing/log-lines";

import { databaseErrorCode, errorMessage } from "./error-message";
import { flushRepeatedLogLines, logger, redact } from "./logger";

const EMAIL = "jane@example.com";
const PHONE = "+15555551234";
const BODY = JSON.stringify({ type: "authenticator.expired", data: { email: EMAIL, phoneNumber: PHONE } });
/** Anything of a body, a parameter, an email or a phone number. */
const PERSONAL = /jane|5555551234|authenticator\.expired|Failed query|params/;

const log = captureLogLines();

const logged = () => log.lines.map((line) => JSON.parse(line) as Record<string, unknown>);

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  return run().then(
    () => expect.fail("the query should have failed"),
    (error: unknown) => error,
  );
}

describe("redact", () => {
  it("replaces secret-looking fields at any depth and keeps the rest", () => {
    expect(
      redact({
        region: "us",
        managementKey: "sk_live",
        nested: { authorization: "Basic x", status: 401 },
        serverSecret: "s",
      }),
    ).toEqual({
      region: "us",
      managementKey: "[redacted]",
      nested: { authorization: "[redacted]", status: 401 },
      serverSecret: "[redacted]",
    });
  });
  it("applies to written lines", () => {
    logger.info("connected", { region: "us", managementKey: "sk_live" });
    expect(logged()[0]).toMatchObject({
      level: "info",
      message: "connected",
      region: "us",
      managementKey: "[redacted]",
    });
  });
});

describe("a line", () => {
  it("is one JSON object on standard error: level, time, message, then the fields, and nothing else", () => {
    logger.warn("idle database connection lost", { error: "Connection terminated unexpectedly" });
    expect(log.lines).toHaveLength(1);
    expect(Object.keys(logged()[0] ?? {})).toEqual(["level", "time", "message", "error"]);
    expect(logged()[0]).toMatchObject({
      level: "warn",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it("gives an error passed as a field as errorMessage words it, never its properties (a failed query's parameters)", () => {
    const params = [BODY, EMAIL, PHONE];
    const failed = Object.assign(
      new Error(`Failed query: insert into t values ($1, $2, $3)\nparams: ${params.join(",")}`),
      { query: "insert", params },
    );
    logger.error("webhook event not stored", { error: failed, nested: { cause: failed } });
    expect(log.lines[0]).not.toMatch(PERSONAL);
    expect(logged()[0]).toMatchObject({ error: "database query failed", nested: { cause: "database query failed" } });
  });

  it("is left out below CONSOLE_LOG_LEVEL, and is not counted as a repeat", async () => {
    vi.stubEnv("CONSOLE_LOG_LEVEL", "error");
    vi.resetModules();
    try {
      const quiet = await import("./logger");
      quiet.logger.info("retention purge", { events: 1 });
      quiet.logger.warn("idle database connection lost", { error: "Connection terminated unexpectedly" });
      quiet.logger.warn("idle database connection lost", { error: "Connection terminated unexpectedly" });
      quiet.logger.error("webhook event not stored", { error: "database error 08006: connection exception" });
      quiet.flushRepeatedLogLines();
      expect(logged()).toEqual([expect.objectContaining({ level: "error", message: "webhook event not stored" })]);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("a webhook URL's token", () => {
  const TOKEN = "Zq3k9WbX2mN7pR4tY8vL1cH6jD0sF5gA";
  it.each([
    ["a plain path", `POST /api/webhooks/${TOKEN} failed`],
    ["a malformed escape after the token", `URI malformed: /api/webhooks/${TOKEN}%zz`],
    ["a lone percent", `http://127.0.0.1:3000/api/webhooks/${TOKEN}%`],
    ["an encoded token", `/api/webhooks/${[...TOKEN].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("")}`],
    ["encoded slashes", `%2Fapi%2Fwebhooks%2F${TOKEN}`],
    ["twice-encoded slashes", `%252Fapi%252Fwebhooks%252F${TOKEN}%252`],
    ["an encoded letter", `/api/%77ebhooks/${TOKEN}%zz`],
    ["doubled slashes", `/api//webhooks//${TOKEN}?x=%zz`],
    ["a quoted input", `TypeError: Invalid URL { input: 'http://h/api/webhooks/${TOKEN}%E0%A4%A' }`],
  ])("never reaches a line: %s", (_, text) => {
    logger.error(text, { error: text, nested: { path: text }, list: [text] });
    expect(log.lines.join("\n")).not.toMatch(/Zq3k9WbX|%5a%71|%5A%71/i);
    expect(logged()[0]).toMatchObject({ error: expect.stringContaining("[redacted]") });
  });

  it("leaves other paths alone", () => {
    const fields = {
      path: "/webhooks?userId=usr_1",
      file: "lib/webhooks/receive.ts",
      other: "/api/webhook-events/42",
      route: "/api/webhooks/[[...path]]",
    };
    logger.warn("read", fields);
    expect(logged()[0]).toMatchObject(fields);
  });
});

describe("an API token's secret", () => {
  it("never reaches a line, in the message or in any field", () => {
    const secret = "tcapi_Q2xlYXJseU5vdEFSZWFsVG9rZW5CdXRTaGFwZWRMaWtlT25l";
    logger.warn(`rejected Authorization: Bearer ${secret} from a script`, {
      detail: `token=${secret}`,
      list: [`"${secret}"`],
    });
    expect(log.lines.join("\n")).not.toContain("Q2xlYXJse");
    expect(logged()[0]).toMatchObject({
      message: "rejected Authorization: Bearer tcapi_[redacted] from a script",
      detail: "token=tcapi_[redacted]",
    });
  });
});

describe("errorMessage", () => {
  it("recognises drizzle's wrapper by its shape, not its class (the built server holds several copies)", () => {
    const cause = Object.assign(new Error(`date/time field value out of range: "0000-01-01"`), {
      code: "22008",
      routine: "DateTimeParseError",
    });
    const params = [BODY, "usr_alice", EMAIL, PHONE];
    const lookalike = Object.assign(
      new Error(`Failed query: insert into "webhook_events" values ($1, $2, $3, $4)\nparams: ${params.join(",")}`),
      {
        name: "DrizzleQueryError",
        query: `insert into "webhook_events" values ($1, $2, $3, $4)`,
        params,
        cause,
      },
    );
    expect(lookalike).not.toBeInstanceOf(DrizzleQueryError);
    expect(errorMessage(lookalike)).toBe("database error 22008: data exception (routine DateTimeParseError)");
    expect(databaseErrorCode(lookalike)).toBe("22008");
    // Without a cause, or with its shape alone (name "Error", as drizzle's own class has), nothing of it either.
    expect(errorMessage({ message: lookalike.message, query: "q", params })).toBe("database query failed");
    expect(
      errorMessage(
        Object.assign(new Error(lookalike.message), { cause: new Error("Connection terminated unexpectedly") }),
      ),
    ).toBe("database query failed: Connection terminated unexpectedly");
  });

  it("gives only the code and names for a driver error, whose message and detail can quote values", () => {
    const missing = Object.assign(
      new Error(`insert or update on table "invites" violates foreign key constraint "invites_email_fkey"`),
      {
        name: "error",
        code: "23503",
        detail: `Key (email)=(${EMAIL}) is not present in table "users".`,
        constraint: "invites_email_fkey",
        table: "invites",
        routine: "ri_ReportViolation",
      },
    );
    expect(errorMessage(missing)).toBe(
      `database error 23503: integrity constraint violation (constraint "invites_email_fkey", table "invites", routine ri_ReportViolation)`,
    );
    expect(errorMessage(new Error("wrapped", { cause: missing }))).not.toMatch(PERSONAL);
  });

  it("logs a real failed query without its parameters, and names the check constraint it broke", async () => {
    const { db, tearDown } = await setUpTestDatabase();
    try {
      await db.execute(sql`create table log_probe (
        body text not null constraint log_probe_body_short check (length(body) < 20),
        user_id uuid, email text, phone text, at timestamptz)`);
      const insert = (body: string, userId: string | null, at: string | null) =>
        db.execute(
          sql`insert into log_probe (body, user_id, email, phone, at) values (${body}, ${userId}, ${EMAIL}, ${PHONE}, ${at})`,
        );

      const check = await failure(() => insert(BODY, null, null));
      // PostgreSQL quotes the refused value: `invalid input syntax for type uuid: "jane@example.com"`.
      const uuid = await failure(() => insert("{}", EMAIL, null));
      const yearZero = await failure(() => insert("{}", null, "0000-01-01T00:00:00Z"));
      const nul = await failure(() => insert(`{"email":"${EMAIL}\u0000"}`, null, null));
      for (const error of [check, uuid, yearZero, nul]) {
        logger.error("webhook event not stored", { eventId: "evt_1", error: errorMessage(error) });
      }
      expect(log.lines).toHaveLength(4);
      for (const line of log.lines) expect(line).not.toMatch(PERSONAL);
      expect(logged().map((l) => l.error)).toEqual([
        expect.stringMatching(
          /^database error 23514: integrity constraint violation \(constraint "log_probe_body_short", table "log_probe"/,
        ),
        expect.stringMatching(/^database error 22P02: data exception/),
        expect.stringMatching(/^database error 22008: data exception/),
        expect.stringMatching(/^database error 22021: data exception/),
      ]);
      expect([check, uuid, yearZero, nul].map(databaseErrorCode)).toEqual(["23514", "22P02", "22008", "22021"]);
      // What a plain error.message would have logged:
      expect((uuid as Error).message).toContain(EMAIL);
    } finally {
      await tearDown();
    }
  });

  it("says what happened when the database cannot be reached, with no SQLSTATE", async () => {
    const down = await unreachableDatabase();
    try {
      const error = await failure(() => down.db.execute(sql`select ${EMAIL}::text`));
      expect(errorMessage(error)).toMatch(/^database query failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
      expect(databaseErrorCode(error)).toBeUndefined();
    } finally {
      await down.close();
    }
    const refused = Object.assign(new AggregateError([], ""), { code: "ECONNREFUSED" });
    expect(errorMessage(refused)).toBe("ECONNREFUSED");
    expect(errorMessage(new Error("PGlite is closed"))).toBe("PGlite is closed");
  });

  it("gives other errors' messages as they are, and survives a cause cycle", () => {
    expect(errorMessage(new Error("port 3000 is in use"))).toBe("port 3000 is in use");
    expect(errorMessage("plain")).toBe("plain");
    const loop: Error & { cause?: unknown } = new Error("loop");
    loop.cause = loop;
    expect(errorMessage(loop)).toBe("loop");
    expect(databaseErrorCode(loop)).toBeUndefined();
    expect(databaseErrorCode(Object.assign(new Error("broken pipe"), { code: "EPIPE" }))).toBeUndefined();
  });
});

describe("repeated lines", () => {
  it("writes 1000 identical errors in a window as the first line and one count", () => {
    vi.useFakeTimers();
    for (let i = 0; i < 1000; i++) {
      logger.error("webhook event not stored", {
        eventId: `evt_${i}`,
        error: "database error 08006: connection exception",
      });
    }
    expect(log.lines).toHaveLength(1);
    vi.advanceTimersByTime(10_000);
    expect(logged()).toEqual([
      expect.objectContaining({
        level: "error",
        message: "webhook event not stored",
        eventId: "evt_0",
        error: "database error 08006: connection exception",
      }),
      {
        time: expect.any(String),
        level: "error",
        message: "webhook event not stored",
        error: "database error 08006: connection exception",
        repeated: 999,
        windowSeconds: 10,
      },
    ]);
    // The next window starts with a line of its own.
    logger.error("webhook event not stored", {
      eventId: "evt_1000",
      error: "database error 08006: connection exception",
    });
    expect(logged()[2]).toMatchObject({ eventId: "evt_1000" });
  });

  it("keeps lines with another error text or level, and never collapses info lines", () => {
    vi.useFakeTimers();
    logger.error("webhook event not stored", { error: "database error 23514" });
    logger.error("webhook event not stored", { error: "database error 22P02" });
    logger.warn("webhook event not stored", { error: "database error 23514" });
    logger.info("retention purge", { events: 1 });
    logger.info("retention purge", { events: 1 });
    expect(log.lines).toHaveLength(5);
    vi.advanceTimersByTime(10_000);
    expect(log.lines).toHaveLength(5);
  });

  it("writes a pending count when flushed (as on exit)", () => {
    vi.useFakeTimers();
    logger.warn("idle database connection lost", { error: "Connection terminated unexpectedly" });
    logger.warn("idle database connection lost", { error: "Connection terminated unexpectedly" });
    flushRepeatedLogLines();
    expect(logged()[1]).toMatchObject({ message: "idle database connection lost", repeated: 1, windowSeconds: 10 });
  });
});
