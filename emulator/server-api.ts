import { randomUUID } from "node:crypto";

import { z } from "zod";

import { tenantFromBasicAuth, type RegionContext } from "./context";
import { ApiError, readJsonBody, type Reply } from "./http";
import type { Route } from "./routing";
import { describeIssues, VERIFICATION_METHODS } from "./seed";

export const READ_AUTHENTICATORS = "read:authenticators";
export const ADD_AUTHENTICATORS = "add:authenticators";
/** SERVICE-FACTS: the scopes a client token can carry. */
const SCOPES: readonly string[] = [
  READ_AUTHENTICATORS,
  ADD_AUTHENTICATORS,
  "update:authenticators",
  "remove:authenticators",
];
const ACTION_CODE = /^[a-zA-Z0-9_-]{1,64}$/;

const splitScopes = (scope: string | undefined): string[] => (scope ?? "").split(" ").filter(Boolean);

const trackRequestSchema = z
  .object({
    scope: z
      .string()
      .superRefine((scope, ctx) => {
        for (const name of splitScopes(scope).filter((s) => !SCOPES.includes(s))) {
          ctx.addIssue({ code: "custom", message: `unknown scope ${name}; expected some of ${SCOPES.join(", ")}` });
        }
      })
      .optional(),
    redirectUrl: z.string().optional(),
    email: z.string().optional(),
    phoneNumber: z.string().optional(),
    ipAddress: z.string().optional(),
    userAgent: z.string().optional(),
    custom: z.record(z.string(), z.unknown()).optional(),
  })
  .optional();

/**
 * Spec 5.2.4: read is always granted and requested scopes are added; a user with no current
 * authenticator may enroll the first one without asking, otherwise add must be requested.
 */
export function grantedScopes(requestedScope: string | undefined, hasAuthenticators: boolean): string[] {
  const scopes = new Set([READ_AUTHENTICATORS, ...splitScopes(requestedScope)]);
  if (!hasAuthenticators) scopes.add(ADD_AUTHENTICATORS);
  return [...scopes];
}

async function trackAction(context: RegionContext, [userId, action]: string[]): Promise<Reply> {
  const { state, tokens, clock } = context.world;
  const tenant = tenantFromBasicAuth(
    context,
    (region, key) => state.tenantByServerKey(region, key),
    "server API secret key",
  );
  if (!userId || !action || !ACTION_CODE.test(action)) {
    throw new ApiError(400, "invalid_request", "The action code must match ^[a-zA-Z0-9_-]{1,64}$.");
  }
  const parsed = trackRequestSchema.safeParse(await readJsonBody(context.req));
  if (!parsed.success) throw new ApiError(400, "invalid_request", describeIssues(parsed.error));
  const enrolled = state.currentAuthenticators(tenant, userId);
  const scopes = grantedScopes(parsed.data?.scope, enrolled.length > 0);
  const token = await tokens.issue({ tenantId: tenant.id, userId, action, scopes }, clock.now());
  const enrolledMethods = [...new Set(enrolled.map((a) => a.verificationMethod))];
  const allowedMethods = VERIFICATION_METHODS.filter((method) => method !== "EMAIL_OTP" || tenant.emailOtp?.isActive);
  return {
    status: 200,
    body: {
      state: "ALLOW",
      idempotencyKey: randomUUID(),
      token,
      isEnrolled: enrolled.length > 0,
      enrolledVerificationMethods: enrolledMethods,
      allowedVerificationMethods: allowedMethods,
    },
  };
}

/** Paths below `{base}` that are neither management nor client. */
export const serverRoutes: Route<RegionContext>[] = [
  { pattern: /^\/users\/([^/]+)\/actions\/([^/]+)\/?$/, methods: { POST: trackAction } },
];
