/** What anyone may know of an API token's shape. Client-safe: no server imports. */

/** Every secret starts with it, so that secret scanners (and people) recognise a leaked one. */
export const API_TOKEN_PREFIX = "tcapi_";

/** `api`: the /api data routes, with the token's role; `metrics`: GET /api/metrics. */
export const apiTokenScopes = ["api", "metrics"] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];

/** Whether a token works now: `inactive` when its user is disabled or no longer holds its role. */
export type ApiTokenStatus = "active" | "expired" | "revoked" | "inactive";

/**
 * Why a token was revoked: by an admin or operator, or with its user's access (disabled, sessions revoked, role
 * lowered below the token's).
 */
export const apiTokenRevocationReasons = ["revoked", "user_disabled", "sessions_revoked", "role_lowered"] as const;
export type ApiTokenRevocationReason = (typeof apiTokenRevocationReasons)[number];
