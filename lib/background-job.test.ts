import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { startAlerts } from "@/lib/alerts/alerts";
import { startReplayQueuing } from "@/lib/destinations/replay-queue";
import { startErasureResumption } from "@/lib/erasure/erasure";
import { setUpTestDatabase } from "@/lib/testing/database";
import { scaled } from "@/lib/testing/timeouts";
import { startWebhookRetentionJob } from "@/lib/webhooks/retention";

import { startBackgroundJob } from "./background-job";
import { beginDraining, stopProcess } from "./lifecycle";
import { logger } from "./logger";
import { forgetProcessSingleton } from "./process-singleton";

// The background jobs' part of a stop: no run starts while draining, the stop waits for the run under way until its
// deadline, and nothing runs after. A job is once per process: each test names its own.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
afterEach(() => forgetProcessSingleton("lifecycle"));

/** A job every 20 ms whose runs each take `ms` (never ending for Infinity); counts the runs started. */
function countingJob(ms: number) {
  const job = { started: 0, ended: 0 };
  startBackgroundJob(`test.${crypto.randomUUID()}`, {
    everyMs: 20,
    firstMs: 0,
    run: async () => {
      job.started++;
      await (Number.isFinite(ms) ? sleep(ms) : new Promise(() => {}));
      job.ended++;
    },
  });
  return job;
}

describe("a background job", () => {
  it("runs one run at a time, starts none while draining, and the stop waits for the run under way", async () => {
    const job = countingJob(150);
    await sleep(400);
    expect(job.started).toBeGreaterThanOrEqual(2);
    await vi.waitFor(() => expect(job.started - job.ended).toBe(1));
    beginDraining();
    const drainedAt = job.started;
    await stopProcess(Date.now() + 5_000);
    expect(job.ended).toBe(drainedAt);
    await sleep(200);
    expect(job.started).toBe(drainedAt);
  });

  it("lets the stop return by its deadline when a run does not end, and says so", async () => {
    const warn = vi.spyOn(logger, "warn");
    const job = countingJob(Infinity);
    await vi.waitFor(() => expect(job.started).toBe(1));
    const deadline = Date.now() + 300;
    await stopProcess(deadline);
    expect(Date.now()).toBeGreaterThanOrEqual(deadline - 20);
    expect(Date.now()).toBeLessThan(deadline + scaled(200));
    expect(warn).toHaveBeenCalledWith("a background job was still running at the stop's deadline", expect.anything());
    expect(job.started).toBe(1);
    warn.mockRestore();
  });
});

describe("the console's jobs at a stop", () => {
  let tearDown: () => Promise<void>;
  beforeAll(async () => ({ tearDown } = await setUpTestDatabase()));
  afterAll(() => tearDown());

  it("retention, alerts, erasure resumption and replay queuing: their hooks return promptly, none of them failing", async () => {
    const error = vi.spyOn(logger, "error");
    const warn = vi.spyOn(logger, "warn");
    // Erasure resumption and replay queuing run at once: the stop finds them under way, or just ended.
    startWebhookRetentionJob();
    startAlerts();
    startErasureResumption();
    startReplayQueuing();
    beginDraining();
    const started = Date.now();
    await stopProcess(started + 5_000);
    expect(Date.now() - started).toBeLessThan(scaled(1_000));
    expect([...error.mock.calls, ...warn.mock.calls]).toEqual([]);
    error.mockRestore();
    warn.mockRestore();
  });
});
