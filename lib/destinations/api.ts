import "server-only";

import { apiActor, parseJsonBody } from "@/lib/api-input";
import { apiError, apiJson, authenticateApi } from "@/lib/auth/guards";
import type { Role } from "@/lib/auth/roles";
import { eventIdParamSchema } from "@/lib/webhooks/schemas";
import { getWebhookEvent } from "@/lib/webhooks/webhooks";

import { GONE } from "./destinations";
import { listEventForwards, resendEvent } from "./event-forwards";
import { getReplayProgress } from "./replay";
import { resendApiSchema } from "./schemas";

/**
 * The route handlers of forwarding: an event's forwards (its drawer) and a resend of it, a replay's progress
 * (./api-replays.ts starts and cancels replays, ./api-destinations.ts manages destinations). JSON, never cached.
 */

/** The path's event, as this role may see it, or the 400 or 404 to answer. */
async function pathEvent(id: string, role: Role) {
  const checked = eventIdParamSchema.safeParse(id);
  if (!checked.success) return apiError(400, "invalid_request", `id: ${checked.error.issues[0]!.message}`);
  return (await getWebhookEvent(Number(id), role)) ?? apiError(404, "not_found", `No webhook event with id ${id}.`);
}

/** GET /api/webhook-events/{id}/forwards: support and admins; the start of an answer for admins only. */
export async function handleGetEventForwards(request: Request, id: string): Promise<Response> {
  const user = await authenticateApi(request, "support");
  if (user instanceof Response) return user;
  const event = await pathEvent(id, user.role);
  if (event instanceof Response) return event;
  return apiJson({ destinations: await listEventForwards(event.connectionId, event.eventId, user.role) });
}

/**
 * POST /api/webhook-events/{id}/forwards: sends the event to one destination of its connection once more, as the
 * log's Resend does; 409 when the destination is off or must not get it (an unverified event).
 */
export async function handleResendEvent(request: Request, id: string): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const event = await pathEvent(id, user.role);
  if (event instanceof Response) return event;
  const body = await parseJsonBody(request, resendApiSchema);
  if (!body.ok) return body.response;
  const { connectionId, eventId } = event;
  const result = await resendEvent(await apiActor(user), {
    connectionId,
    eventId,
    destinationId: body.data.destinationId,
  });
  if (result === GONE) return apiError(404, "not_found", "The event's connection has no destination with this id.");
  if (!result.ok) return apiError(409, "conflict", result.error);
  return apiJson({ queued: true as const, eventId, destinationId: body.data.destinationId });
}

/** GET /api/replays/{id}: admins, who start replays. */
export async function handleGetReplay(request: Request, id: string): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const progress = await getReplayProgress(id);
  if (!progress) return apiError(404, "not_found", "No replay has this id.");
  return apiJson(progress);
}
