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
    const nested = JSON.stringify({
      type: "authenticator.created",
      data: { contacts: [{ email: "bob@example.org" }] },
    });
    expect(maskRawBody(nested)).not.toContain("bob@");
  });
  it("masks values the sender escaped (\\u0040 for @, \\u002B for +)", () => {
    const raw = String.raw`{"data":{"email":"jane\u0040example.com","phoneNumber":"\u002B15555551234"}}`;
    const masked = maskRawBody(raw);
    expect(JSON.parse(masked).data).toEqual({ email: "j•••@example.com", phoneNumber: "+•••••••1234" });
    expect(masked).not.toMatch(/jane|5555551234/);
  });
  it("masks whatever an email or phoneNumber key holds: a list, an object, a number", () => {
    const raw = JSON.stringify({
      data: { email: ["jane@example.com", { work: "jim@example.com" }], phoneNumber: 15555551234, other: null },
    });
    const masked = maskRawBody(raw);
    expect(masked).not.toMatch(/jane|jim|5555551234/);
    expect(JSON.parse(masked).data).toEqual({
      email: ["j•••@example.com", { work: "j•••@example.com" }],
      phoneNumber: "•••••••1234",
      other: null,
    });
  });
  it("masks a body nested 100,000 levels deep without overflowing the stack", () => {
    const depth = 100_000;
    const bottom = '{"email":"jane@example.com","phoneNumber":"+15555551234"}';
    const objects = '{"a":'.repeat(depth) + bottom + "}".repeat(depth);
    expect(maskRawBody(objects)).toBe(
      '{"a":'.repeat(depth) + '{"email":"j•••@example.com","phoneNumber":"+•••••••1234"}' + "}".repeat(depth),
    );
    const lists = "[".repeat(depth) + bottom + "]".repeat(depth);
    expect(maskRawBody(lists)).not.toMatch(/jane|5555551234/);
    const underEmail = '{"email":' + "[".repeat(depth) + '"jane@example.com"' + "]".repeat(depth) + "}";
    expect(maskRawBody(underEmail)).toBe(
      '{"email":' + "[".repeat(depth) + '"j•••@example.com"' + "]".repeat(depth) + "}",
    );
  });
  it("writes what JSON.stringify writes for a body with nothing to mask", () => {
    const raw = String.raw`{"b":[1,-0,1e999,2.50,1E3,true,false,null,[],{}],"a":"\u0041\n\"\\\/\u2028\ud83d\ude00 é","10":{},"2":"x","__proto__":{"y":[{"z":[]}]},"":""}`;
    expect(maskRawBody(raw)).toBe(JSON.stringify(JSON.parse(raw)));
    for (const plain of ["null", "12", '"text"', "[]", "{}"])
      expect(maskRawBody(plain)).toBe(JSON.stringify(JSON.parse(plain)));
  });
  it("withholds a body that is not JSON rather than show it unmasked", () => {
    expect(maskRawBody("email=jane@example.com")).not.toContain("jane");
  });
});
