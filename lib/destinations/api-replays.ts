import "server-only";

import { eq } from "drizzle-orm";

import { apiActor, parseInput, parseJsonBody } from "@/lib/api-input";
import { apiError, apiJson, authenticateApi } from "@/lib/auth/guards";
import { getDb } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { parseEventFilters } from "@/lib/webhooks/webhooks";

import { GONE } from "./destinations";
import { cancelReplay, countReplay, getReplayProgress, startReplay } from "./replay";
import { replayApiSchema, replayPathSchema, type ReplayInput } from "./schemas";

/**
 * Replays over the API (admins): what the log's Replay dialog previews, starts and cancels, through the same
 * functions, so a replay started here is counted, limited and audited the same way.
 */

const noDestination = () => apiError(404, "not_found", "No destination has this id.");

type ReplayBody = { ok: true; input: ReplayInput; enabled: boolean } | { ok: false; response: Response };

/** The body as the replay's input: its filters read as the log reads them, its destination's connection. */
async function replayRequest(request: Request): Promise<ReplayBody> {
  const body = await parseJsonBody(request, replayApiSchema);
  if (!body.ok) return body;
  const filters = new URLSearchParams(body.data.filters);
  const parsed = parseEventFilters(filters);
  if (!parsed.ok)
    return { ok: false, response: apiError(400, "invalid_request", `filters: ${parsed.errorDescription}`) };
  const db = await getDb();
  const [destination] = await db
    .select({ connectionId: forwardDestinations.connectionId, enabled: forwardDestinations.enabled })
    .from(forwardDestinations)
    .where(eq(forwardDestinations.id, body.data.destinationId))
    .limit(1);
  if (!destination) return { ok: false, response: noDestination() };
  const { connectionId, enabled } = destination;
  return {
    ok: true,
    enabled,
    input: { connectionId, destinationId: body.data.destinationId, filters: filters.toString() },
  };
}

/** POST /api/replays/preview: what a replay of these filters would send, and what it would leave out and why. */
export async function handlePreviewReplay(request: Request): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const replay = await replayRequest(request);
  if (!replay.ok) return replay.response;
  const preview = await countReplay(replay.input);
  if (preview === GONE) return noDestination();
  if (!preview.ok) return apiError(400, "invalid_request", preview.error);
  // JSON leaves the undefined out: the answer is the preview without the action's `ok`.
  return apiJson({ ...preview, ok: undefined });
}

/** POST /api/replays: starts one; 409 while another to the destination runs, or while the destination is off. */
export async function handleStartReplay(request: Request): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const replay = await replayRequest(request);
  if (!replay.ok) return replay.response;
  const started = await startReplay(await apiActor(user), replay.input);
  if (started === GONE) return noDestination();
  if (!started.ok)
    return !replay.enabled || started.runningReplayId
      ? apiError(409, "conflict", started.error)
      : apiError(400, "invalid_request", `filters: ${started.error}`);
  return apiJson({ ...started, ok: undefined });
}

/** POST /api/replays/{id}/cancel: drops its waiting deliveries (one under way finishes); 409 once cancelled. */
export async function handleCancelReplay(request: Request, id: string): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const path = parseInput(replayPathSchema, { id });
  if (!path.ok) return path.response;
  if (!(await getReplayProgress(id))) return apiError(404, "not_found", "No replay has this id.");
  const cancelled = await cancelReplay(await apiActor(user), { replayId: path.data.id });
  if (!cancelled.ok) return apiError(409, "conflict", cancelled.error);
  return apiJson({ replayId: id, cancelled: cancelled.cancelled });
}
