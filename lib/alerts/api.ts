import "server-only";

import { apiError, apiJson, authenticateApi } from "@/lib/auth/guards";

import { listAlerts } from "./alerts";
import { alertFiltersSchema } from "./schemas";

/**
 * GET /api/alerts: support and admins. The alerts the filters select (`state`, `kind`, `connectionId`,
 * `muted`, `limit`), open ones first, with how many match and when the evaluator last ran; JSON, never cached, in
 * the log API's conventions (a bad parameter is a 400 `{ error, errorDescription }` naming it).
 */
export async function handleListAlerts(request: Request): Promise<Response> {
  const user = await authenticateApi(request, "support");
  if (user instanceof Response) return user;
  const parsed = alertFiltersSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const description =
      issue.code === "unrecognized_keys"
        ? `${issue.keys.join(", ")}: not a filter (use connectionId, kind, state, muted or limit)`
        : `${issue.path.join(".")}: ${issue.message}`;
    return apiError(400, "invalid_request", description);
  }
  return apiJson(await listAlerts(parsed.data, user.role));
}
