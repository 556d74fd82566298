import { afterEach, describe, expect, it, vi } from "vitest";

async function scaleWith(value: string | undefined) {
  vi.resetModules();
  if (value === undefined) vi.stubEnv("TEST_TIMEOUT_SCALE", undefined);
  else vi.stubEnv("TEST_TIMEOUT_SCALE", value);
  return import("./timeouts");
}

describe("TEST_TIMEOUT_SCALE", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("stretches a limit by the factor set, and leaves it as it is when unset", async () => {
    expect((await scaleWith("4")).scaled(30_000)).toBe(120_000);
    expect((await scaleWith(undefined)).scaled(30_000)).toBe(30_000);
    expect((await scaleWith("")).scaled(15_000)).toBe(15_000);
  });

  it("refuses a factor that would shorten limits or is not a number, saying what it wants", async () => {
    for (const value of ["0.5", "0", "-2", "four", "Infinity"]) {
      await expect(scaleWith(value), value).rejects.toThrow(
        `TEST_TIMEOUT_SCALE must be a number of at least 1, not "${value}".`,
      );
    }
  });
});
