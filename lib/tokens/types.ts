import type { ApiTokenRevocationReason, ApiTokenScope, ApiTokenStatus } from "@/lib/auth/api-token-format";
import type { Role } from "@/lib/auth/roles";
import type { ActionFailure } from "@/lib/call-action";

/** Client-safe shapes of the tokens page. Never a secret, nor its hash. */

export type { ApiTokenRevocationReason, ApiTokenStatus };

export type ApiTokenView = {
  id: string;
  name: string;
  role: Role;
  scopes: ApiTokenScope[];
  /** The creator's email; null when an operator made it with the CLI. */
  createdBy: string | null;
  /** Whom it acts for; null for an operator's token. */
  user: string | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  /** Why it was revoked: by an admin (`revoked`), or with its user's access. Null while it is not. */
  revokedReason: ApiTokenRevocationReason | null;
  lastUsedAt: string | null;
  /** Null when the console cannot tell callers' addresses apart (no trusted proxy). */
  lastUsedAddress: string | null;
  status: ApiTokenStatus;
};

export type CreateApiTokenField = "name" | "role" | "scopes" | "expiresInDays";

/** The secret is in the answer once, and nowhere else ever. */
export type CreateApiTokenResult =
  { ok: true; id: string; name: string; secret: string } | (ActionFailure & { field?: CreateApiTokenField });
