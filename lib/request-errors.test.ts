import { beforeEach, describe, expect, it, vi } from "vitest";

import { captureLogLines } from "@/lib/testing/log-lines";

import { logRequestError, takeOverNextErrorPrint } from "./request-errors";

// Next's prints of the errors it catches, as Next 16.4's log.error makes them (`⨯`, red and bold on a
// terminal, then the error), taken over by the logger; what reaches the output, and what is left alone.
// bench/reliability/request-errors.ts checks the same against the built server.

const SECRET = "usr_secretlooking_0001";
const failedQuery = () =>
  Object.assign(new Error(`Failed query: select * from webhook_events where user_id = $1\nparams: ${SECRET}`), {
    params: [SECRET],
    cause: Object.assign(new Error("column webhook_events.device_name does not exist"), {
      code: "42703",
      routine: "errorMissingColumn",
    }),
  });
const context = {
  routerKind: "App Router",
  routePath: "/api/webhook-events",
  routeType: "route",
  revalidateReason: undefined,
} as const;
const request = { path: `/api/webhook-events?userId=${SECRET}`, method: "GET", headers: {} };

const log = captureLogLines();
beforeEach(() => {
  vi.useFakeTimers();
});

const messages = () => log.lines.map((line) => (JSON.parse(line) as { message: string }).message);

describe("Next's print of an error it caught", () => {
  it("is taken over, and the request's own line is the only one written", () => {
    const error = failedQuery();
    expect(takeOverNextErrorPrint(["\u001b[31m\u001b[1m⨯\u001b[22m\u001b[39m", error])).toBe(true);
    logRequestError(error, request, context);
    vi.advanceTimersByTime(5_000);
    expect(messages()).toEqual(["request failed"]);
    expect(log.lines.join("\n")).not.toContain(SECRET);
    expect(log.lines[0]).toContain("database error 42703");
  });

  it("is written as a server error when no request claims it (the server's own failures)", () => {
    expect(takeOverNextErrorPrint(["⨯", failedQuery()])).toBe(true);
    expect(log.lines).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(messages()).toEqual(["server error"]);
    expect(log.lines.join("\n")).not.toContain(SECRET);
  });

  it("takes an unhandled rejection and an uncaught exception as what they are", () => {
    expect(takeOverNextErrorPrint(["⨯", "unhandledRejection:", failedQuery()])).toBe(true);
    expect(takeOverNextErrorPrint(["⨯", "uncaughtException:", new Error("at /api/webhooks/TokenTokenToken%zz")])).toBe(
      true,
    );
    expect(messages()).toEqual(["unhandled rejection", "uncaught exception"]);
    expect(log.lines.join("\n")).not.toMatch(new RegExp(`${SECRET}|TokenTokenToken`));
  });

  it("leaves every other print alone", () => {
    for (const args of [
      ["⨯ Failed to start server"],
      ["⨯", "some words"],
      ["an error:", new Error("x")],
      [new Error("x")],
      ["⨯", "unhandledRejection:", new Error("x"), "more"],
    ]) {
      expect(takeOverNextErrorPrint(args)).toBe(false);
    }
    vi.advanceTimersByTime(5_000);
    expect(log.lines).toEqual([]);
  });
});
