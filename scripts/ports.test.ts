import { execFile } from "node:child_process";
import { promisify } from "node:util";

import { describe, expect, it } from "vitest";

import { scaled } from "@/lib/testing/timeouts";

import { FETCH_BLOCKED_PORTS, portProblem, readPort } from "./ports.mjs";

/** What this Node's fetch says when asked to connect to `port` on a loopback address nothing listens on. */
async function fetchRefusal(port: number): Promise<string> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5000) });
    return "answered";
  } catch (error) {
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    return cause?.message ?? cause?.code ?? String(error);
  }
}

describe("the fetch standard's blocked ports", () => {
  it("are the ports this Node's fetch refuses as a bad port, and their neighbours are not", async () => {
    const listed = [...FETCH_BLOCKED_PORTS];
    const neighbours = listed
      .flatMap((port) => [port - 1, port + 1])
      .filter((port) => port > 0 && !FETCH_BLOCKED_PORTS.has(port));
    const refusals = await Promise.all(
      [...listed, ...neighbours, 3000, 4010, 4020].map(async (port) => [port, await fetchRefusal(port)] as const),
    );
    const refusedAsBad = refusals.filter(([, refusal]) => refusal === "bad port").map(([port]) => port);
    expect(refusedAsBad).toEqual(listed);
  });

  it("name the variable that chose one, and why", () => {
    expect(portProblem("EMULATOR_PORT", 4190)).toMatch(
      /^EMULATOR_PORT=4190 is a port that browsers and Node's fetch refuse to connect to .*fetch\.spec\.whatwg\.org.* Choose another port: EMULATOR_PORT=<port>\.$/,
    );
    expect(portProblem("PORT", "abc")).toBe(
      'PORT must be a port number from 1 to 65535, not "abc". Choose another port: PORT=<port>.',
    );
    expect(portProblem("PORT", "65536")).toMatch(/^PORT must be a port number from 1 to 65535, not "65536"/);
    expect(portProblem("PORT", "")).toMatch(/^PORT must be a port number from 1 to 65535, not ""/);
    expect(portProblem("PORT", "30.5")).toMatch(/not "30.5"/);
    expect(portProblem("PORT", "0x10")).toMatch(/not "0x10"/);
    expect(portProblem("PORT", "3000")).toBeUndefined();
  });
});

describe("readPort", () => {
  it("reads a variable's port, its fallback when unset, and names the variable and its text when it holds no port", () => {
    expect(readPort("PORT", 3000, {})).toBe(3000);
    expect(readPort("PORT", 3000, { PORT: "3100" })).toBe(3100);
    expect(() => readPort("PORT", 3000, { PORT: "abc" })).toThrow(
      'PORT must be a port number from 1 to 65535, not "abc". Choose another port: PORT=<port>.',
    );
    expect(() => readPort("EMULATOR_PORT", 4010, { EMULATOR_PORT: "4190" })).toThrow(
      /^EMULATOR_PORT=4190 is a port that browsers/,
    );
  });
});

describe("npm run demo", () => {
  it("names a port variable that holds no port before it builds or starts anything", async () => {
    const run = await promisify(execFile)("bash", ["scripts/demo.sh"], {
      env: { ...process.env, PORT: "abc" },
      timeout: scaled(20_000),
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? "" }),
    );
    expect(run).toEqual({
      code: 1,
      stderr: 'PORT must be a port number from 1 to 65535, not "abc". Choose another port: PORT=<port>.\n',
    });
  });
});

describe("npm start", () => {
  const npmStart = (port: string) =>
    promisify(execFile)("npm", ["start", "--silent"], {
      env: { ...process.env, PORT: port },
      timeout: scaled(20_000),
    }).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? "" }),
    );

  it("refuses a blocked PORT before the server starts, naming the variable", async () => {
    const { code, stderr } = await npmStart("4190");
    expect(code).toBe(1);
    // One line of the server's log, as every line it writes.
    expect(JSON.parse(stderr.trim())).toMatchObject({ level: "fatal", message: portProblem("PORT", 4190) });
  });
});
