import "server-only";

import { eq } from "drizzle-orm";

import { apiActor, parseInput, parseJsonBody } from "@/lib/api-input";
import type { AuditActor } from "@/lib/audit/audit";
import { apiError, apiJson, authenticateApi } from "@/lib/auth/guards";
import type { Role } from "@/lib/auth/roles";
import type { ActionFailure, ActionResult } from "@/lib/call-action";
import { getConnection } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";

import {
  createDestination,
  GONE,
  listDestinations,
  removeDestination,
  sendDestinationTestEvent,
  setDestinationEnabled,
  updateDestination,
} from "./destinations";
import {
  createDestinationApiSchema,
  destinationListQuerySchema,
  destinationPathSchema,
  updateDestinationApiSchema,
  type UpdateDestinationApiInput,
} from "./schemas";
import type { DestinationSummary } from "./types";

/**
 * The destinations' route handlers: list (support and admins, as the pages show them), create, change and remove
 * (admins), each change through the function the page's action calls, so it is checked and audited the same way.
 */

const noConnection = (id: string) => apiError(404, "not_found", `No connection has the id ${id}.`);
const noDestination = () => apiError(404, "not_found", "No destination has this id.");

/** GET /api/destinations?connectionId=…: the connection's destinations with their health; support sees origins. */
export async function handleListDestinations(request: Request): Promise<Response> {
  const user = await authenticateApi(request, "support");
  if (user instanceof Response) return user;
  const query = parseInput(destinationListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  if (!query.ok) return query.response;
  if (!(await getConnection(query.data.connectionId))) return noConnection(query.data.connectionId);
  return apiJson({ destinations: await listDestinations(query.data.connectionId, user.role) });
}

/** POST /api/destinations: adds one; a Standard Webhooks destination's secret is in this answer only. */
export async function handleCreateDestination(request: Request): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const body = await parseJsonBody(request, createDestinationApiSchema);
  if (!body.ok) return body.response;
  if (!(await getConnection(body.data.connectionId))) return noConnection(body.data.connectionId);
  const result = await createDestination(await apiActor(user), body.data);
  if (result.ok) return apiJson({ id: result.id, name: result.name, secret: result.secret });
  // The body parsed, so a refusal on the name is a clash, one without a field the connection's limit;
  // the URL's rules and the signing's are the request's to mend.
  if (result.field === "name" || !result.field) return apiError(409, "conflict", result.error);
  return apiError(400, "invalid_request", `${result.field}: ${result.error}`);
}

/** The connection a destination belongs to, read by its id alone, as the API names destinations. */
async function connectionOf(destinationId: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ connectionId: forwardDestinations.connectionId })
    .from(forwardDestinations)
    .where(eq(forwardDestinations.id, destinationId))
    .limit(1);
  return row?.connectionId;
}

type Target = { connectionId: string; destinationId: string };

/** The path's destination, or the 400 or 404 to answer. */
async function pathDestination(id: string): Promise<{ ok: true; target: Target } | { ok: false; response: Response }> {
  const path = parseInput(destinationPathSchema, { id });
  if (!path.ok) return path;
  const connectionId = await connectionOf(path.data.id);
  if (!connectionId) return { ok: false, response: noDestination() };
  return { ok: true, target: { connectionId, destinationId: path.data.id } };
}

/** A destination as the list shows it to this role, after a change. */
const summaryOf = async (
  { connectionId, destinationId }: Target,
  role: Role,
): Promise<DestinationSummary | undefined> =>
  (await listDestinations(connectionId, role)).find((destination) => destination.id === destinationId);

/**
 * What PATCH changes, each through the page's own function (and audit record): the edit first, so a destination
 * turned on starts at its new URL and rate.
 */
const CHANGES: Array<{
  fields: ReadonlyArray<keyof UpdateDestinationApiInput>;
  apply: (
    actor: AuditActor,
    target: Target,
    body: UpdateDestinationApiInput,
  ) => Promise<ActionResult | (ActionFailure & { field?: string })>;
}> = [
  {
    fields: ["url", "eventTypes", "verificationMethods", "maxPerSecond"],
    apply: (actor, target, { url, eventTypes, verificationMethods, maxPerSecond }) =>
      updateDestination(actor, { ...target, url, eventTypes, verificationMethods, maxPerSecond }),
  },
  {
    fields: ["enabled"],
    apply: (actor, target, body) => setDestinationEnabled(actor, { ...target, enabled: body.enabled }),
  },
];

/** PATCH /api/destinations/{id}: edits it, turns it on or off; answers the destination as it is now. */
export async function handleUpdateDestination(request: Request, id: string): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const found = await pathDestination(id);
  if (!found.ok) return found.response;
  const body = await parseJsonBody(request, updateDestinationApiSchema);
  if (!body.ok) return body.response;
  const actor = await apiActor(user);
  for (const change of CHANGES) {
    if (change.fields.every((field) => body.data[field] === undefined)) continue;
    const result = await change.apply(actor, found.target, body.data);
    if (result === GONE) return noDestination();
    if (!result.ok) {
      const field = "field" in result && result.field ? result.field : change.fields[0];
      return apiError(400, "invalid_request", `${field}: ${result.error}`);
    }
  }
  const summary = await summaryOf(found.target, user.role);
  return summary ? apiJson(summary) : noDestination();
}

/** DELETE /api/destinations/{id}: removes it with its queue and its attempts. */
export async function handleRemoveDestination(request: Request, id: string): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const found = await pathDestination(id);
  if (!found.ok) return found.response;
  const summary = await summaryOf(found.target, user.role);
  const result = await removeDestination(await apiActor(user), found.target);
  if (!result.ok || !summary) return noDestination();
  return apiJson({ id: summary.id, name: summary.name, removed: true as const });
}

/** POST /api/destinations/{id}/test: sends it a test event, signed as it signs, and answers what the attempt did. */
export async function handleTestDestination(request: Request, id: string): Promise<Response> {
  const user = await authenticateApi(request, "admin");
  if (user instanceof Response) return user;
  const found = await pathDestination(id);
  if (!found.ok) return found.response;
  const result = await sendDestinationTestEvent(await apiActor(user), found.target);
  if (result === GONE) return noDestination();
  if (!result.ok) return apiError(409, "conflict", result.error);
  return apiJson({
    delivered: result.delivered,
    status: result.status,
    durationMs: result.durationMs,
    error: result.error,
    eventId: result.eventId,
  });
}
