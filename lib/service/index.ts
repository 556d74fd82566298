import "server-only";
export { getCustomDataPoint, getEmailOtpConfiguration, deleteEmailOtpConfiguration } from "./management";
export type { ManagementCredentials, RequestOptions } from "./http";
export type { ServiceResult, ServiceFailure } from "./result";
export type { CustomDataPoint, EmailOtpConfiguration } from "./schemas";
