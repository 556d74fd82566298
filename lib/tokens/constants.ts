/** The tokens page's vocabulary. Client-safe, no zod. */
export { API_TOKEN_PREFIX, apiTokenScopes, type ApiTokenScope } from "@/lib/auth/api-token-format";

export const TOKEN_NAME_MAX = 100;
/** Ten years: a longer expiry is no expiry, and says so honestly by leaving it empty. */
export const TOKEN_EXPIRY_MAX_DAYS = 3650;

export const scopeLabels = { api: "API (the /api data routes)", metrics: "Metrics (GET /api/metrics)" } as const;
