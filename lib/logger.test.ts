import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { setUpTestDatabase } from "@/lib/testing/database";
import { errorMessage, redact } from "./logger";

describe("redact", () => {
  it("replaces secret-looking fields at any depth and keeps the rest", () => {
    expect(
      redact({ region: "us", managementKey: "sk_live", nested: { authorization: "Basic x", status: 401 }, serverSecret: "s" }),
    ).toEqual({ region: "us", managementKey: "[redacted]", nested: { authorization: "[redacted]", status: 401 }, serverSecret: "[redacted]" });
  });
});

describe("errorMessage", () => {
  it("gives a failed query's database message, never its SQL or parameters", async () => {
    const { db, tearDown } = await setUpTestDatabase();
    try {
      const failure = await db
        .execute(sql`select ${"alice@example.com"}::text, 1 / ${0}::int`)
        .then(() => null, (error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      const message = errorMessage(failure);
      expect(message).toBe("division by zero");
      // What a plain error.message would have logged:
      expect((failure as Error).message).toContain("alice@example.com");
    } finally {
      await tearDown();
    }
  });

  it("gives other errors' messages as they are", () => {
    expect(errorMessage(new Error("port 3000 is in use"))).toBe("port 3000 is in use");
    expect(errorMessage("plain")).toBe("plain");
  });
});
