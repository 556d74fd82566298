import { describe, expect, it } from "vitest";

import { TOKEN_LIFETIME_SECONDS, TokenIssuer } from "./auth";

describe("client token lifetime", () => {
  const claims = { tenantId: "t", userId: "u", action: "signIn", scopes: ["read:authenticators"] };
  const lifetimeMs = TOKEN_LIFETIME_SECONDS * 1000;

  // Issued late in a second: whole-second iat/exp would end the token up to 1 s early.
  it.each([0, 1, 999])("is valid for exactly 10 minutes of virtual time (issued at +%i ms)", async (fraction) => {
    const issuedAtMs = 1_700_000_000_000 + fraction;
    const tokens = new TokenIssuer();
    const token = await tokens.issue(claims, issuedAtMs);
    expect(await tokens.verify(token, issuedAtMs + lifetimeMs - 1)).toMatchObject({ ok: true, claims });
    expect(await tokens.verify(token, issuedAtMs + lifetimeMs)).toEqual({ ok: false, error: "expired_token" });
    expect(await tokens.verify(token, issuedAtMs + lifetimeMs + 5_000)).toEqual({ ok: false, error: "expired_token" });
  });

  it("refuses a token signed by another issuer", async () => {
    const token = await new TokenIssuer().issue(claims, 0);
    expect(await new TokenIssuer().verify(token, 0)).toEqual({ ok: false, error: "unauthorized" });
  });
});
