import { describe, expect, it } from "vitest";

import { knownZone } from "./viewer-zone";

describe("the reader's time zone", () => {
  it("takes a zone from the cookie only if the runtime knows it", () => {
    expect(knownZone("Europe/Paris")).toBe("Europe/Paris");
    expect(knownZone("Mars/Olympus")).toBe("UTC");
    expect(knownZone(undefined)).toBe("UTC");
    expect(knownZone("x".repeat(100))).toBe("UTC");
  });
});
