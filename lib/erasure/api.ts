import "server-only";

import { describedIssue as described } from "@/lib/api-input";
import { apiError, apiJson, authenticateApi } from "@/lib/auth/guards";

import { eraseEndUserData } from "./erasure";
import { endUserErasureQuerySchema, endUserPathSchema } from "./schemas";
import type { EndUserErasureAnswer } from "./types";

/**
 * DELETE /api/end-users/{userId}[?connectionId=…], for a tenant's deletion pipeline (admins; a token or a
 * session): erases the user's data in one connection, or without connectionId in every connection, and
 * answers what it erased once it is gone and recorded.
 */
export async function handleEraseEndUser(request: Request, userId: string): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const query = endUserErasureQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiError(400, "invalid_request", described(query.error));
  const path = endUserPathSchema.safeParse({ userId });
  if (!path.success) return apiError(400, "invalid_request", described(path.error));
  const result = await eraseEndUserData(user, {
    userId: path.data.userId,
    connectionId: query.data.connectionId ?? null,
  });
  if (!result.ok)
    return apiError(result.failure === "not_found" ? 404 : 400, result.failure ?? "invalid_request", result.error);
  return apiJson({
    userIdHash: result.userIdHash,
    connectionId: result.connectionId,
    erased: result.erased,
  } satisfies EndUserErasureAnswer);
}
