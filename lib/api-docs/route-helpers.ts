import "server-only";

import type { OpenAPIRegistry, ResponseConfig, RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

import { eventIdParamSchema } from "@/lib/webhooks/schemas";

import * as bodies from "./responses";

/** What ./routes.ts and ./routes-forwarding.ts describe routes with: their answers, their roles, their errors. */

export type Role = "support" | "admin";

export const json = (schema: z.ZodType) => ({ "application/json": { schema } });
export const error = (description: string, headers?: ResponseConfig["headers"]): ResponseConfig => ({
  description,
  headers,
  content: json(bodies.apiErrorSchema),
});
export const ok = (description: string, schema: z.ZodType): ResponseConfig => ({ description, content: json(schema) });

export const retryAfter = {
  "Retry-After": { description: "Seconds to wait before the next try.", schema: { type: "integer" as const } },
};

/** What every signed-in route may answer besides its own 200, 400 and 404. */
const signedInErrors = (role: Role): Record<number, ResponseConfig> => ({
  401: error(
    "Neither a session nor a valid bearer token (unknown, revoked, expired, or its user disabled or below its role), after a second for a bearer token: `unauthorized`.",
  ),
  403: error(
    `The session's or token's role is below ${role === "admin" ? "admin" : "the route's"}, or the token lacks the api scope: \`forbidden\`.`,
  ),
  429: error(
    "Too many bad bearer tokens (matching none) from this address; a working token is never refused: `too_many_requests`.",
    retryAfter,
  ),
  503: error("The database did not answer, so the session or token could not be checked: `unavailable`."),
});
export const badRequest = error("A parameter did not parse; `errorDescription` names it: `invalid_request`.");

/** A route for signed-in users and tokens: the role it needs, said in its description and as `x-required-role`. */
export function signedIn(registry: OpenAPIRegistry, role: Role, route: Omit<RouteConfig, "security">) {
  const who =
    role === "admin"
      ? "Needs the admin role (session or token)."
      : "Needs the support role: any signed-in user or api token; support sees email and phone masked.";
  registry.registerPath({
    ...route,
    description: `${route.description ?? ""}\n\n${who}`.trim(),
    security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    "x-required-role": role,
    responses: { ...route.responses, ...signedInErrors(role) },
  });
}

/** A JSON request body: the schema the handler parses it with. */
export const jsonBody = (schema: z.ZodType) => ({ body: { required: true, content: json(schema) } });

/** The path of the routes under /api/webhook-events/{id}. */
export const eventId = z.object({
  id: eventIdParamSchema.meta({
    description: "The event's `id` in the log (a list's `events[].id`), not the service's event id.",
  }),
});
