import { describe, expect, it } from "vitest";
import { maskEmail, maskPhone, maskRawBody } from "./masking";

describe("masking", () => {
  it("keeps the first letter and the domain of an email", () => {
    expect(maskEmail("jane@example.com")).toBe("j•••@example.com");
    expect(maskEmail("not-an-email")).toBe("•••");
  });
  it("keeps the plus and the last four digits of a phone number", () => {
    expect(maskPhone("+15555551234")).toBe("+•••••••1234");
    expect(maskPhone("0612 345 678")).toBe("•••••••5678");
  });
  it("masks email and phone in a raw body, at any depth, and nothing else", () => {
    const raw = '{"data":{"email":"jane@example.com","phoneNumber":"+15555551234","userId":"jane@example.com"},"n":1}';
    expect(JSON.parse(maskRawBody(raw))).toEqual({
      data: { email: "j•••@example.com", phoneNumber: "+•••••••1234", userId: "jane@example.com" },
      n: 1,
    });
    const nested = JSON.stringify({ type: "authenticator.created", data: { contacts: [{ email: "bob@example.org" }] } });
    expect(maskRawBody(nested)).not.toContain("bob@");
  });
  it("masks values the sender escaped (\\u0040 for @, \\u002B for +)", () => {
    const raw = String.raw`{"data":{"email":"jane\u0040example.com","phoneNumber":"\u002B15555551234"}}`;
    const masked = maskRawBody(raw);
    expect(JSON.parse(masked).data).toEqual({ email: "j•••@example.com", phoneNumber: "+•••••••1234" });
    expect(masked).not.toMatch(/jane|5555551234/);
  });
  it("masks whatever an email or phoneNumber key holds: a list, an object, a number", () => {
    const raw = JSON.stringify({ data: { email: ["jane@example.com", { work: "jim@example.com" }], phoneNumber: 15555551234, other: null } });
    const masked = maskRawBody(raw);
    expect(masked).not.toMatch(/jane|jim|5555551234/);
    expect(JSON.parse(masked).data).toEqual({ email: ["j•••@example.com", { work: "j•••@example.com" }], phoneNumber: "•••••••1234", other: null });
  });
  it("withholds a body that is not JSON rather than show it unmasked", () => {
    expect(maskRawBody("email=jane@example.com")).not.toContain("jane");
  });
});
