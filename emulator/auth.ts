import { randomBytes } from "node:crypto";

import { errors, jwtVerify, SignJWT } from "jose";

export const TOKEN_LIFETIME_SECONDS = 600;

/** Username of an HTTP basic `Authorization` header whose password is empty; null otherwise. */
export function basicAuthUsername(header: string | undefined): string | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? "");
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0 || colon !== decoded.length - 1) return null;
  return decoded.slice(0, colon);
}

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? "");
  return match?.[1] ?? null;
}

export interface TokenClaims {
  tenantId: string;
  userId: string;
  action: string;
  scopes: string[];
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; error: "unauthorized" | "expired_token" };

/** Issues and checks client tokens (HS256) with a secret that lives as long as the process. */
export class TokenIssuer {
  private readonly secret = new Uint8Array(randomBytes(32));

  /**
   * The token is valid for exactly TOKEN_LIFETIME_SECONDS of virtual time from `nowMs`. JWT dates are
   * whole seconds (and jose truncates "now" to seconds), so the exact expiry travels in the private
   * claim `expiresAtMs`, and `exp` is rounded up so that jose never finds the token expired early.
   */
  async issue(claims: TokenClaims, nowMs: number): Promise<string> {
    const expiresAtMs = nowMs + TOKEN_LIFETIME_SECONDS * 1000;
    return new SignJWT({
      tenantId: claims.tenantId,
      action: claims.action,
      scope: claims.scopes.join(" "),
      expiresAtMs,
    })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(claims.userId)
      .setIssuedAt(Math.floor(nowMs / 1000))
      .setExpirationTime(Math.ceil(expiresAtMs / 1000))
      .sign(this.secret);
  }

  async verify(token: string, nowMs: number): Promise<TokenCheck> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ["HS256"], currentDate: new Date(nowMs) });
      const { tenantId, action, scope, sub, expiresAtMs } = payload;
      if (
        typeof tenantId !== "string" ||
        typeof action !== "string" ||
        typeof scope !== "string" ||
        !sub ||
        typeof expiresAtMs !== "number"
      ) {
        return { ok: false, error: "unauthorized" };
      }
      if (nowMs >= expiresAtMs) return { ok: false, error: "expired_token" };
      return { ok: true, claims: { tenantId, action, userId: sub, scopes: scope.split(" ").filter(Boolean) } };
    } catch (error) {
      return { ok: false, error: error instanceof errors.JWTExpired ? "expired_token" : "unauthorized" };
    }
  }
}
