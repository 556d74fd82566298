import "server-only";

import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

import { DELIVERED_FORWARDS_STAY } from "@/lib/erasure/constants";
import { endUserErasureQuerySchema, endUserPathSchema } from "@/lib/erasure/schemas";

import * as bodies from "./responses";
import { badRequest, error, ok, signedIn } from "./route-helpers";

/** The end-user erasure route, for a tenant's deletion pipeline (docs/api.md). */
export function describeErasure(registry: OpenAPIRegistry) {
  signedIn(registry, "admin", {
    method: "delete",
    path: "/api/end-users/{userId}",
    tags: ["End users"],
    summary: "Erase everything the console holds about one end user",
    description:
      "For a tenant's deletion pipeline (GDPR's right to erasure). Deletes the user's events, the rejections of those events, their forwards' " +
      "queued deliveries and recorded attempts, and the watch list entries that name them; audit records and replays' filters that name their " +
      "id, email or phone number keep what happened, with those replaced by `[erased]`. In one connection (`connectionId`), or without it in " +
      "every connection. Answers once it is all gone; a restart meanwhile does not stop it (the console finishes it when it starts again). " +
      "The audit log records it as `end_user.erased` with a keyed hash of the id (`userIdHash`), never the id. Asking again is harmless: " +
      `it finds nothing and records a second erasure under the same hash. ${DELIVERED_FORWARDS_STAY}`,
    request: {
      params: z.object({
        userId: endUserPathSchema.shape.userId.meta({
          description: "The user's id as the tenant's application sends it (percent-encoded in the path).",
        }),
      }),
      query: endUserErasureQuerySchema.extend({
        connectionId: endUserErasureQuerySchema.shape.connectionId.meta({
          description: "Only this connection's data of the user; without it, every connection's.",
        }),
      }),
    },
    responses: {
      200: ok("Erased, and recorded in the audit log.", bodies.endUserErasureSchema),
      400: badRequest,
      404: error("No connection has this `connectionId`: `not_found`."),
    },
  });
}
