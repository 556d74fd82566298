import fs from "node:fs";

import { describe, expect, it, onTestFinished } from "vitest";

import { scaled } from "@/lib/testing/timeouts";

import { startProcess, stopProcess } from "./processes";

/** A server that ignores SIGTERM and has a child of its own (in its process group); prints the child's pid. */
const stubborn = `
  process.on("SIGTERM", () => {});
  const child = require("node:child_process").spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: "ignore" });
  console.log("child " + child.pid);
  setInterval(() => {}, 1000);
`;

/** Whatever the test's outcome, nothing of `pid`'s group outlives it. */
function killGroupAfterTest(pid: number) {
  onTestFinished(() => {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      /* gone */
    }
  });
}

/** Running: not gone and not a zombie waiting to be reaped. */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("stopProcess", () => {
  it("kills a process that ignores SIGTERM, and its whole group, once the grace period is over", async () => {
    const server = startProcess("stubborn", process.execPath, ["-e", stubborn], process.env);
    killGroupAfterTest(server.pid!);
    const childPid = await new Promise<number>((resolve) => {
      server.stdout!.on("data", (chunk: Buffer) => {
        const match = /child (\d+)/.exec(String(chunk));
        if (match) resolve(Number(match[1]));
      });
    });
    // Both have their SIGTERM handlers once the child's own code has run.
    await new Promise((r) => setTimeout(r, 300));
    expect(isRunning(server.pid!)).toBe(true);

    const started = Date.now();
    await stopProcess(server, { graceMs: 500 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(server.signalCode).toBe("SIGKILL");
    await expect.poll(() => isRunning(childPid), { timeout: scaled(2_000) }).toBe(false);
  });

  it("resolves as soon as a process that stops on SIGTERM has exited", async () => {
    const server = startProcess("polite", process.execPath, ["-e", "setInterval(() => {}, 1000)"], process.env);
    killGroupAfterTest(server.pid!);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await stopProcess(server, { graceMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(server.signalCode).toBe("SIGTERM");
    await stopProcess(server); // a second stop of an exited process is a no-op
  });

  it("with no grace, kills at once without a SIGTERM first, as a crash would", async () => {
    // Exits with its own code on SIGTERM: only a SIGKILL that came first leaves it killed by a signal.
    const server = startProcess(
      "graceful",
      process.execPath,
      ["-e", "process.on('SIGTERM', () => process.exit(3)); setInterval(() => {}, 1000)"],
      process.env,
    );
    killGroupAfterTest(server.pid!);
    await new Promise((r) => setTimeout(r, 300));
    await stopProcess(server, { graceMs: 0 });
    expect(server.exitCode).toBeNull();
    expect(server.signalCode).toBe("SIGKILL");
  });
});
