import "server-only";

import { managementRequest, type ManagementCredentials, type RequestOptions } from "./http";
import type { ServiceResult } from "./result";
import {
  customDataPointSchema,
  emailOtpConfigurationSchema,
  successResponseSchema,
  type CustomDataPoint,
  type EmailOtpConfiguration,
  type SuccessResponse,
} from "./schemas";

/** GET /custom-data-points/{id} (spec 4.2). */
export function getCustomDataPoint(
  creds: ManagementCredentials,
  id: string,
  options?: RequestOptions,
): Promise<ServiceResult<CustomDataPoint>> {
  return managementRequest(
    creds,
    "GET",
    `/custom-data-points/${encodeURIComponent(id)}`,
    customDataPointSchema,
    options,
  );
}

/** GET /authenticator-configurations/email-otp (SERVICE-FACTS: a per-tenant singleton; 404 when none). */
export function getEmailOtpConfiguration(
  creds: ManagementCredentials,
  options?: RequestOptions,
): Promise<ServiceResult<EmailOtpConfiguration>> {
  return managementRequest(
    creds,
    "GET",
    "/authenticator-configurations/email-otp",
    emailOtpConfigurationSchema,
    options,
  );
}

/** DELETE /authenticator-configurations/email-otp (spec 4.1): sent once, never retried. */
export function deleteEmailOtpConfiguration(
  creds: ManagementCredentials,
  options?: RequestOptions,
): Promise<ServiceResult<SuccessResponse>> {
  return managementRequest(creds, "DELETE", "/authenticator-configurations/email-otp", successResponseSchema, options);
}
