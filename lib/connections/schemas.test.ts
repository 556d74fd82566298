import { describe, expect, it } from "vitest";

import { signInSchema } from "@/lib/auth/schemas";
import { addTeamMemberSchema } from "@/lib/team/schemas";

import { createConnectionSchema } from "./schemas";

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message);

describe("the limits of typed values, named in their messages", () => {
  it("a key of more than 512 characters is refused with its limit", () => {
    const input = { name: "Acme", region: "us", serverKey: "", serverSecondaryKey: "", saveUnverified: false };
    const tooLong = createConnectionSchema.safeParse({ ...input, managementKey: "k".repeat(513) });
    expect(messageOf(tooLong)).toContain("A key has at most 512 characters.");
    expect(createConnectionSchema.safeParse({ ...input, managementKey: "k".repeat(512) }).success).toBe(true);
  });

  it("an email address of more than 320 characters is refused with its limit, at sign-in and on the team page", () => {
    const email = `${"a".repeat(320)}@example.com`;
    expect(messageOf(signInSchema.safeParse({ email, password: "x" }))).toContain(
      "An email address has at most 320 characters.",
    );
    expect(messageOf(addTeamMemberSchema.safeParse({ email, name: "Sue", role: "support" }))).toContain(
      "An email address has at most 320 characters.",
    );
  });

  it("a password of more than 1024 characters is refused at sign-in with its limit", () => {
    const result = signInSchema.safeParse({ email: "ada@example.com", password: "p".repeat(1025) });
    expect(messageOf(result)).toEqual(["A password has at most 1024 characters."]);
  });
});
