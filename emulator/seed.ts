import { readFileSync } from "node:fs";

import { z } from "zod";

export const REGIONS = ["us", "eu", "au", "ca"] as const;
export type Region = (typeof REGIONS)[number];

export const VERIFICATION_METHODS = [
  "SMS",
  "WHATSAPP",
  "EMAIL_OTP",
  "EMAIL_MAGIC_LINK",
  "AUTHENTICATOR_APP",
  "PASSKEY",
  "SECURITY_KEY",
  "PUSH",
] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

export const DATA_TYPES = ["text", "number", "boolean", "multiselect"] as const;
export const MODEL_TYPES = ["user", "action"] as const;
export const EMAIL_PROVIDERS = ["BIRD", "MAILGUN", "MAILJET", "MANDRILL", "SENDGRID", "SMTP"] as const;
export const MAX_WEBHOOK_DELAY_SECONDS = 86_400;

const isoTime = z.iso.datetime({ offset: true });
const secretKey = z.string().min(16, "keys are at least 16 characters");

/**
 * Spec 6.1: the methods whose authenticators have each contact or credential field. A SECURITY_KEY is a
 * WebAuthn credential as well, so it may have credentialId and aaguid too (SERVICE-FACTS: the client API's
 * webauthnCredential); credentialName is the passkey's display name and stays passkey-only.
 */
const METHOD_SPECIFIC_FIELDS: Record<
  "email" | "phoneNumber" | "credentialId" | "aaguid" | "credentialName",
  readonly VerificationMethod[]
> = {
  email: ["EMAIL_OTP", "EMAIL_MAGIC_LINK"],
  phoneNumber: ["SMS", "WHATSAPP"],
  credentialId: ["PASSKEY", "SECURITY_KEY"],
  aaguid: ["PASSKEY", "SECURITY_KEY"],
  credentialName: ["PASSKEY"],
};

/** One authenticator, as written in a seed file or posted to the control API. */
export const authenticatorInputSchema = z
  .strictObject({
    userAuthenticatorId: z.string().min(1).optional(),
    verificationMethod: z.enum(VERIFICATION_METHODS),
    createdAt: isoTime.optional(),
    expiresAt: isoTime.nullable().optional(),
    /** Alternative to expiresAt: seconds from emulator start (seed) or from now (control API). */
    lifetimeSeconds: z.number().positive().optional(),
    verifiedAt: isoTime.optional(),
    lastVerifiedAt: isoTime.optional(),
    isDefault: z.boolean().optional(),
    deviceName: z.string().min(1).optional(),
    devicePlatform: z.string().min(1).optional(),
    email: z.email().optional(),
    phoneNumber: z
      .string()
      .regex(/^\+[0-9]{6,15}$/, "E.164 phone number expected")
      .optional(),
    credentialId: z.string().min(1).optional(),
    aaguid: z.string().min(1).optional(),
    credentialName: z.string().min(1).optional(),
  })
  .superRefine((a, ctx) => {
    if (a.expiresAt && a.lifetimeSeconds !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: "give expiresAt or lifetimeSeconds, not both",
        path: ["lifetimeSeconds"],
      });
    }
    for (const [field, methods] of Object.entries(METHOD_SPECIFIC_FIELDS)) {
      if (a[field as keyof typeof METHOD_SPECIFIC_FIELDS] === undefined || methods.includes(a.verificationMethod))
        continue;
      ctx.addIssue({
        code: "custom",
        message: `only ${methods.join(" or ")} authenticators have ${field}`,
        path: [field],
      });
    }
  });
export type AuthenticatorInput = z.output<typeof authenticatorInputSchema>;

const customDataPointSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  dataType: z.enum(DATA_TYPES),
  modelType: z.enum(MODEL_TYPES),
  description: z.string(),
  isPublic: z.boolean(),
});
export type CustomDataPoint = z.output<typeof customDataPointSchema>;

const emailOtpSchema = z.strictObject({
  authenticatorId: z.uuid().optional(),
  emailProvider: z.enum(EMAIL_PROVIDERS),
  isActive: z.boolean().default(true),
  numberOfAttemptsAllowed: z.number().int().positive().default(5),
  otpLifetimeInSeconds: z.number().int().positive().default(600),
});

/** Adds an issue at the path of every entry whose value an earlier entry already had. */
function refuseDuplicates(
  ctx: z.RefinementCtx,
  entries: Array<{ value: string; path: PropertyKey[] }>,
  message: string,
): void {
  const seen = new Set<string>();
  for (const { value, path } of entries) {
    if (seen.has(value)) ctx.addIssue({ code: "custom", message, path });
    seen.add(value);
  }
}

const tenantSchema = z
  .strictObject({
    id: z.uuid(),
    name: z.string().min(1),
    region: z.enum(REGIONS),
    managementKey: secretKey,
    serverSecretKeys: z.array(secretKey).min(1).max(2),
    webhookUrl: z
      .url({ protocol: /^https?$/ })
      .nullable()
      .default(null),
    webhookDelaySeconds: z.number().int().min(0).max(MAX_WEBHOOK_DELAY_SECONDS).default(0),
    emailOtp: emailOtpSchema.nullable().default(null),
    customDataPoints: z.array(customDataPointSchema).default([]),
    users: z
      .array(
        z.strictObject({ userId: z.string().min(1), authenticators: z.array(authenticatorInputSchema).default([]) }),
      )
      .default([]),
  })
  .superRefine((tenant, ctx) => {
    // Ids that identify one thing within a tenant: a second one would shadow the first.
    const userIds = tenant.users.map((user, i) => ({ value: user.userId, path: ["users", i, "userId"] }));
    refuseDuplicates(ctx, userIds, "duplicate userId in this tenant");
    const pointIds = tenant.customDataPoints.map((point, i) => ({
      value: point.id,
      path: ["customDataPoints", i, "id"],
    }));
    refuseDuplicates(ctx, pointIds, "duplicate custom data point id in this tenant");
    const authenticatorIds = tenant.users.flatMap((user, i) =>
      user.authenticators.flatMap(({ userAuthenticatorId: value }, j) =>
        value === undefined ? [] : [{ value, path: ["users", i, "authenticators", j, "userAuthenticatorId"] }],
      ),
    );
    refuseDuplicates(ctx, authenticatorIds, "duplicate userAuthenticatorId in this tenant");
  });
export type TenantSeed = z.output<typeof tenantSchema>;

export const seedSchema = z.strictObject({ tenants: z.array(tenantSchema) }).superRefine((seed, ctx) => {
  refuseDuplicates(
    ctx,
    seed.tenants.map((tenant, i) => ({ value: tenant.id, path: ["tenants", i, "id"] })),
    "duplicate tenant id",
  );
  // Keys must be unique so that a key identifies one tenant and one kind of API.
  const keys = seed.tenants.flatMap((tenant, i) => [
    { value: tenant.managementKey, path: ["tenants", i, "managementKey"] },
    ...tenant.serverSecretKeys.map((value, j) => ({ value, path: ["tenants", i, "serverSecretKeys", j] })),
  ]);
  refuseDuplicates(ctx, keys, "key used twice");
});

/** What callers pass (defaults may be omitted). */
export type Seed = z.input<typeof seedSchema>;
/** A validated seed with defaults filled in. */
export type ParsedSeed = z.output<typeof seedSchema>;

export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
}

export function parseSeed(data: unknown, source = "seed"): ParsedSeed {
  const result = seedSchema.safeParse(data);
  if (!result.success) throw new Error(`Invalid ${source}: ${describeIssues(result.error)}`);
  return result.data;
}

export function loadSeedFile(path: string): ParsedSeed {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`Cannot read seed file ${path}: ${(error as Error).message}`);
  }
  return parseSeed(data, `seed file ${path}`);
}
