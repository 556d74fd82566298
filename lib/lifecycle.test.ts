import { afterEach, describe, expect, it } from "vitest";

import { beginDraining, isDraining, lifecycleState, markStarted, onStop, stopProcess } from "./lifecycle";
import { forgetProcessSingleton } from "./process-singleton";

// The lifecycle is the process's: what a test begins here must not reach the next file on this thread.
afterEach(() => forgetProcessSingleton("lifecycle"));

describe("the process lifecycle", () => {
  it("goes from starting to serving to draining", () => {
    expect(lifecycleState()).toBe("starting");
    markStarted();
    expect([lifecycleState(), isDraining()]).toEqual(["serving", false]);
    beginDraining();
    expect([lifecycleState(), isDraining()]).toEqual(["draining", true]);
  });

  it("runs the hooks stage by stage with the deadline, past one that throws, and one name once", async () => {
    const ran: string[] = [];
    const deadline = Date.now() + 5_000;
    const hook =
      (name: string, ms = 0) =>
      async (given: number) => {
        expect(given).toBe(deadline);
        await new Promise((resolve) => setTimeout(resolve, ms));
        ran.push(name);
      };
    onStop("pool", "close", hook("pool"));
    onStop("batches", "flush", hook("batches"));
    onStop("slow job", "work", hook("slow job", 50));
    onStop("failing job", "work", async () => {
      throw new Error("boom");
    });
    onStop("job", "work", hook("first registration"));
    onStop("job", "work", hook("job"));
    await stopProcess(deadline);
    expect(ran).toEqual(["job", "slow job", "batches", "pool"]);
    expect(isDraining()).toBe(true);
  });
});
