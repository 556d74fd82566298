import { z } from "zod";

/**
 * Response shapes of the management API. The spec shows `text` and `user` and says the full
 * enumerations are not shown, so unknown values are kept as strings rather than refused.
 */
export const customDataPointSchema = z.object({
  id: z.string(),
  name: z.string(),
  dataType: z.string(),
  modelType: z.string(),
  description: z.string(),
  isPublic: z.boolean(),
});
export type CustomDataPoint = z.infer<typeof customDataPointSchema>;

/** The spec does not show these fields; SERVICE-FACTS lists the ones below. Others are kept. */
export const emailOtpConfigurationSchema = z
  .object({
    authenticatorId: z.string().optional(),
    isActive: z.boolean().optional(),
    verificationMethod: z.string().optional(),
    emailProvider: z.string().optional(),
  })
  .catchall(z.unknown());
export type EmailOtpConfiguration = z.infer<typeof emailOtpConfigurationSchema>;

export const successResponseSchema = z.object({ success: z.boolean() });
export type SuccessResponse = z.infer<typeof successResponseSchema>;

/** POST {base}/users/{userId}/actions/{action} (spec 4.4): `token` is what the client API needs. */
export const trackActionResponseSchema = z
  .object({
    token: z.string().min(1),
    state: z.string().optional(),
    isEnrolled: z.boolean().optional(),
    enrolledVerificationMethods: z.array(z.string()).optional(),
  })
  .catchall(z.unknown());
export type TrackActionResponse = z.infer<typeof trackActionResponseSchema>;

/** GET {base}/client/user-authenticators (SERVICE-FACTS): email and phone arrive masked by the service. */
export const userAuthenticatorSchema = z.object({
  userAuthenticatorId: z.string(),
  authenticatorType: z.string().optional(),
  verificationMethod: z.string(),
  createdAt: z.string(),
  verifiedAt: z.string().optional(),
  lastVerifiedAt: z.string().optional(),
  isDefault: z.boolean().optional(),
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
  deviceName: z.string().optional(),
  devicePlatform: z.string().optional(),
  webauthnCredential: z
    .object({ credentialId: z.string().optional(), name: z.string().optional(), aaguid: z.string().optional() })
    .optional(),
});
export const userAuthenticatorsSchema = z.array(userAuthenticatorSchema);
export type UserAuthenticator = z.infer<typeof userAuthenticatorSchema>;
