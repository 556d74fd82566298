import { afterEach, beforeEach, vi } from "vitest";

import { flushRepeatedLogLines } from "@/lib/logger";

/**
 * For a test file about what the console logs: each test's log lines (stderr, a JSON object each), kept
 * instead of printed, with the logger's held repeats flushed and time made real again after each test.
 */
export function captureLogLines(): { lines: string[] } {
  const captured = { lines: [] as string[] };
  beforeEach(() => {
    captured.lines = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      captured.lines.push(...String(chunk).split("\n").filter(Boolean));
      return true;
    });
  });
  afterEach(() => {
    flushRepeatedLogLines();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  return captured;
}
