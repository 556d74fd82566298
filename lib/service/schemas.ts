import { z } from "zod";

/**
 * Response shapes of the management API. The spec shows `text` and `user` and says the full
 * enumerations are not shown, so unknown values are kept as strings rather than refused.
 */
export const knownDataTypes = ["text", "number", "boolean", "multiselect"] as const;
export const knownModelTypes = ["user", "action"] as const;

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

export const errorResponseSchema = z.object({ error: z.string(), errorDescription: z.string() });
