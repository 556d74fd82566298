import "server-only";

import { apiError, apiJson, authenticateApi } from "@/lib/auth/guards";
import { eventIdParamSchema } from "@/lib/webhooks/schemas";
import { getWebhookEvent } from "@/lib/webhooks/webhooks";

import { listEventForwards } from "./event-forwards";
import { getReplayProgress } from "./replay";

/** The route handlers of forwarding: an event's forwards (its drawer) and a replay's progress. JSON, never cached. */

/** GET /api/webhook-events/{id}/forwards: support and admins; the start of an answer for admins only. */
export async function handleGetEventForwards(request: Request, id: string): Promise<Response> {
  const user = await authenticateApi(request, "support");
  if (user instanceof Response) return user;
  const checked = eventIdParamSchema.safeParse(id);
  if (!checked.success) return apiError(400, "invalid_request", `id: ${checked.error.issues[0]!.message}`);
  const event = await getWebhookEvent(Number(id), user.role);
  if (!event) return apiError(404, "not_found", `No webhook event with id ${id}.`);
  return apiJson({ destinations: await listEventForwards(event.connectionId, event.eventId, user.role) });
}

/** GET /api/replays/{id}: admins, who start replays. */
export async function handleGetReplay(request: Request, id: string): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const progress = await getReplayProgress(id);
  if (!progress) return apiError(404, "not_found", "No replay has this id.");
  return apiJson(progress);
}
