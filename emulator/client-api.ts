import { bearerToken } from "./auth";
import { unauthorized, type RegionContext } from "./context";
import { ApiError, type Reply } from "./http";
import { maskEmail, maskPhoneNumber } from "./masking";
import type { Route } from "./routing";
import type { VerificationMethod } from "./seed";
import { READ_AUTHENTICATORS } from "./server-api";
import type { StoredAuthenticator } from "./state";

const AUTHENTICATOR_TYPES: Record<VerificationMethod, string> = {
  PUSH: "PUSH",
  PASSKEY: "PASSKEY",
  SECURITY_KEY: "SECURITY_KEY",
  SMS: "OOB",
  WHATSAPP: "OOB",
  EMAIL_OTP: "OOB",
  EMAIL_MAGIC_LINK: "OOB",
  AUTHENTICATOR_APP: "OTP",
};

function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  return accept
    .split(",")
    .map((part) => part.split(";")[0]?.trim().toLowerCase())
    .some((type) => type === "*/*" || type === "application/*" || type === "application/json");
}

export function toClientAuthenticator(authenticator: StoredAuthenticator): Record<string, unknown> {
  const a = authenticator;
  return {
    userAuthenticatorId: a.userAuthenticatorId,
    authenticatorType: AUTHENTICATOR_TYPES[a.verificationMethod],
    verificationMethod: a.verificationMethod,
    createdAt: a.createdAt,
    ...(a.verifiedAt && { verifiedAt: a.verifiedAt }),
    ...(a.lastVerifiedAt && { lastVerifiedAt: a.lastVerifiedAt }),
    ...(a.isDefault !== undefined && { isDefault: a.isDefault }),
    ...(a.email && { email: maskEmail(a.email) }),
    ...(a.phoneNumber && { phoneNumber: maskPhoneNumber(a.phoneNumber) }),
    // Only PASSKEY and SECURITY_KEY authenticators can have a credentialId (seed.ts).
    ...(a.credentialId && {
      webauthnCredential: {
        credentialId: a.credentialId,
        ...(a.credentialName && { name: a.credentialName }),
        ...(a.aaguid && { aaguid: a.aaguid }),
      },
    }),
    ...(a.deviceName && { deviceName: a.deviceName }),
    ...(a.devicePlatform && { devicePlatform: a.devicePlatform }),
  };
}

async function userAuthenticators(context: RegionContext): Promise<Reply> {
  const { world, region, req } = context;
  const token = bearerToken(req.headers.authorization);
  if (!token) throw unauthorized("A bearer token is required.", "Bearer");
  const check = await world.tokens.verify(token, world.clock.now());
  if (!check.ok) {
    if (check.error === "expired_token") throw unauthorized("The token has expired.", "Bearer", "expired_token");
    throw unauthorized("The token is not valid.", "Bearer");
  }
  const tenant = world.state.tenantById(check.claims.tenantId);
  // A token of a tenant in another region is as unknown here as a forged one.
  if (!tenant || tenant.region !== region) throw unauthorized("The token is not valid in this region.", "Bearer");
  if (!check.claims.scopes.includes(READ_AUTHENTICATORS)) {
    throw new ApiError(403, "forbidden", `The token lacks the scope ${READ_AUTHENTICATORS}.`);
  }
  if (!acceptsJson(req.headers.accept)) throw new ApiError(406, "not_acceptable", "Only application/json is served.");
  const authenticators = world.state.currentAuthenticators(tenant, check.claims.userId);
  return { status: 200, body: authenticators.map(toClientAuthenticator) };
}

/** Paths below `{base}/client`. */
export const clientRoutes: Route<RegionContext>[] = [
  { pattern: /^\/user-authenticators\/?$/, methods: { GET: userAuthenticators } },
];
