import { describe, expect, it } from "vitest";

import { breakerSentence, nextTryWords } from "./display";

describe("a tripped breaker in words", () => {
  const now = Date.parse("2026-12-02T10:00:00Z");
  const inSeconds = (seconds: number) => new Date(now + seconds * 1000).toISOString();

  it("says how many failed attempts paused it and when the next try goes", () => {
    expect(breakerSentence(inSeconds(30), now)).toBe("Paused after 5 failed attempts; next try in 30 s");
  });

  it("counts longer waits in minutes", () => {
    expect(nextTryWords(inSeconds(150), now)).toBe("next try in 2 min");
  });

  it("says it is trying again once the time has come, or when no time is set", () => {
    expect(nextTryWords(inSeconds(-1), now)).toBe("trying again now");
    expect(nextTryWords(null, now)).toBe("trying again now");
  });
});
