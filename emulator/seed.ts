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
    phoneNumber: z.string().regex(/^\+[0-9]{6,15}$/, "E.164 phone number expected").optional(),
    credentialId: z.string().min(1).optional(),
    aaguid: z.string().min(1).optional(),
    credentialName: z.string().min(1).optional(),
  })
  .refine((a) => !(a.expiresAt && a.lifetimeSeconds !== undefined), {
    message: "give expiresAt or lifetimeSeconds, not both",
    path: ["lifetimeSeconds"],
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

const tenantSchema = z.strictObject({
  id: z.uuid(),
  name: z.string().min(1),
  region: z.enum(REGIONS),
  managementKey: secretKey,
  serverSecretKeys: z.array(secretKey).min(1).max(2),
  webhookUrl: z.url({ protocol: /^https?$/ }).nullable().default(null),
  webhookDelaySeconds: z.number().int().min(0).max(MAX_WEBHOOK_DELAY_SECONDS).default(0),
  emailOtp: emailOtpSchema.nullable().default(null),
  customDataPoints: z.array(customDataPointSchema).default([]),
  users: z
    .array(z.strictObject({ userId: z.string().min(1), authenticators: z.array(authenticatorInputSchema).default([]) }))
    .default([]),
});
export type TenantSeed = z.output<typeof tenantSchema>;

export const seedSchema = z.strictObject({ tenants: z.array(tenantSchema) }).superRefine((seed, ctx) => {
  const seenIds = new Set<string>();
  const seenKeys = new Set<string>();
  seed.tenants.forEach((tenant, index) => {
    if (seenIds.has(tenant.id)) ctx.addIssue({ code: "custom", message: "duplicate tenant id", path: ["tenants", index, "id"] });
    seenIds.add(tenant.id);
    for (const key of [tenant.managementKey, ...tenant.serverSecretKeys]) {
      // Keys must be unique so that a key identifies one tenant and one kind of API.
      if (seenKeys.has(key)) ctx.addIssue({ code: "custom", message: "key used twice", path: ["tenants", index] });
      seenKeys.add(key);
    }
  });
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
