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
  it("masks the values in a raw body and nothing else", () => {
    const raw = '{"data":{"email":"jane@example.com","phoneNumber":"+15555551234","userId":"jane@example.com-id"}}';
    expect(maskRawBody(raw, { email: "jane@example.com", phoneNumber: "+15555551234" })).toBe(
      '{"data":{"email":"j•••@example.com","phoneNumber":"+•••••••1234","userId":"j•••@example.com-id"}}',
    );
    expect(maskRawBody(raw, { email: null, phoneNumber: null })).toBe(raw);
  });
});
