import "server-only";

export { getCustomDataPoint, getEmailOtpConfiguration, deleteEmailOtpConfiguration } from "./management";
export { trackAction } from "./server-api";
export { getUserAuthenticators } from "./client-api";
export type { ManagementCredentials, RequestOptions } from "./http";
export type { ServiceResult, ServiceFailure } from "./result";
export type { CustomDataPoint, EmailOtpConfiguration, UserAuthenticator } from "./schemas";
