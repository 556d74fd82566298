import "server-only";

import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";

import {
  createDestinationApiSchema,
  destinationListQuerySchema,
  destinationPathSchema,
  replayApiSchema,
  replayPathSchema,
  resendApiSchema,
  updateDestinationApiSchema,
} from "@/lib/destinations/schemas";

import * as bodies from "./responses-forwarding";
import { badRequest, error, eventId, jsonBody, ok, signedIn } from "./route-helpers";

/**
 * Forwarding's routes that write, for admins' sessions and tokens: what the destination list, the log's Resend and
 * its Replay dialog do, through the same functions, audited the same way (the token's user as the actor).
 */

const TAG = "Forwarding";
const badBody = error(
  "The body is not JSON, or a field did not parse (a misspelt one too); `errorDescription` names it: `invalid_request`.",
);
const noDestination = error("No destination has this id: `not_found`.");
const destinationPath = {
  params: destinationPathSchema.extend({
    id: destinationPathSchema.shape.id.meta({ description: "The destination's id (a list's `destinations[].id`)." }),
  }),
};
const replayBody = jsonBody(
  replayApiSchema
    .extend({
      filters: replayApiSchema.shape.filters.meta({
        description:
          "The log's filters, named and written as GET /api/webhook-events takes them in its query (`type`, `received`, `userId`, …); the connection is the destination's. Test events are never replayed.",
      }),
    })
    .meta({ id: "ReplayRequest" }),
);

function describeDestinations(registry: OpenAPIRegistry) {
  signedIn(registry, "support", {
    method: "get",
    path: "/api/destinations",
    tags: [TAG],
    summary: "A connection's forwarding destinations, with their last 24 hours",
    request: { query: destinationListQuerySchema },
    responses: {
      200: ok("The destinations, oldest first.", bodies.destinationListSchema),
      400: badRequest,
      404: error("No connection has this `connectionId`: `not_found`."),
    },
  });
  signedIn(registry, "admin", {
    method: "post",
    path: "/api/destinations",
    tags: [TAG],
    summary: "Add a destination",
    description:
      "The URL must be https, without credentials, and reach a public address (or a host the console's operator allowed). A Standard Webhooks destination's secret is in this answer only. Audited as `destination.created`.",
    request: jsonBody(createDestinationApiSchema.meta({ id: "DestinationCreate" })),
    responses: {
      200: ok("Added; it takes the events that arrive from now on.", bodies.createdDestinationSchema),
      400: badBody,
      404: error("No connection has this `connectionId`: `not_found`."),
      409: error(
        "The connection already has a destination of this name, or has as many destinations as it may: `conflict`.",
      ),
    },
  });
  signedIn(registry, "admin", {
    method: "patch",
    path: "/api/destinations/{id}",
    tags: [TAG],
    summary: "Edit a destination (URL, event types, methods, cap) or turn it on or off",
    description:
      "Only the fields sent change; `null` for `eventTypes`, `verificationMethods` or `maxPerSecond` clears it (every type, every method, no cap). The URL follows the rules of adding one. Turning it on also lifts an automatic pause. Audited as `destination.updated`, `destination.enabled`, `destination.resumed` or `destination.disabled`.",
    request: { ...destinationPath, ...jsonBody(updateDestinationApiSchema.meta({ id: "DestinationUpdate" })) },
    responses: {
      200: ok("The destination as it is now.", bodies.destinationSummarySchema),
      400: badBody,
      404: noDestination,
    },
  });
  signedIn(registry, "admin", {
    method: "post",
    path: "/api/destinations/{id}/test",
    tags: [TAG],
    summary: "Send a destination a test event",
    description:
      "An `authenticator.expired` event the console makes (its id starts `console-test-`), signed as the destination signs and sent at once; listed in its attempts as a test, never counted by its circuit breaker. Audited as `destination.test_sent`.",
    request: destinationPath,
    responses: {
      200: ok("Sent; whether it was delivered, and the answer.", bodies.destinationTestSchema),
      400: badRequest,
      404: noDestination,
      409: error(
        "The destination cannot sign now (its secret or the connection's server key is unreadable): `conflict`.",
      ),
    },
  });
  signedIn(registry, "admin", {
    method: "delete",
    path: "/api/destinations/{id}",
    tags: [TAG],
    summary: "Remove a destination, with its queue and its attempts",
    description: "Audited as `destination.removed`.",
    request: destinationPath,
    responses: { 200: ok("Removed.", bodies.removedDestinationSchema), 400: badRequest, 404: noDestination },
  });
}

function describeResendAndReplays(registry: OpenAPIRegistry) {
  signedIn(registry, "admin", {
    method: "post",
    path: "/api/webhook-events/{id}/forwards",
    tags: [TAG],
    summary: "Send an event to one destination of its connection again",
    description:
      "Queued due now, whatever the destination's event types and methods say, as the log's Resend does. Audited as `destination.resent`.",
    request: { params: eventId, ...jsonBody(resendApiSchema.meta({ id: "ResendRequest" })) },
    responses: {
      200: ok("Queued; GET on this path shows its attempts.", bodies.resentSchema),
      400: badBody,
      404: error("No event has this id, or its connection no destination with `destinationId`: `not_found`."),
      409: error(
        "The destination is off, or must not get this event (it was not verified and the destination takes only verified events): `conflict`.",
      ),
    },
  });
  const replayErrors = {
    400: badBody,
    404: noDestination,
  };
  signedIn(registry, "admin", {
    method: "post",
    path: "/api/replays/preview",
    tags: [TAG],
    summary: "What a replay would send, before starting it",
    request: replayBody,
    responses: { 200: ok("The count, and what it leaves out and why.", bodies.replayPreviewSchema), ...replayErrors },
  });
  signedIn(registry, "admin", {
    method: "post",
    path: "/api/replays",
    tags: [TAG],
    summary: "Replay the events the log's filters select to one destination",
    description:
      "Queued in the background in chunks and sent at the destination's pace; follow it with GET /api/replays/{id}. One replay at a time per destination. Audited as `destination.replay_started`.",
    request: replayBody,
    responses: {
      200: ok("Started.", bodies.replayStartedSchema),
      ...replayErrors,
      400: error(
        "The body or a filter did not parse, or the filters select more events than one replay may send; `errorDescription` says which: `invalid_request`.",
      ),
      409: error("The destination is off, or another replay to it is still running: `conflict`."),
    },
  });
  signedIn(registry, "admin", {
    method: "post",
    path: "/api/replays/{id}/cancel",
    tags: [TAG],
    summary: "Cancel a replay",
    description:
      "Its queuing stops and its waiting deliveries are dropped; an attempt under way finishes. Audited as `destination.replay_cancelled`.",
    request: {
      params: replayPathSchema.extend({
        id: replayPathSchema.shape.id.meta({ description: "The replay's id, as starting it answered." }),
      }),
    },
    responses: {
      200: ok("Cancelled.", bodies.replayCancelledSchema),
      400: badRequest,
      404: error("No replay has this id: `not_found`."),
      409: error("The replay was already cancelled: `conflict`."),
    },
  });
}

export function describeForwardingWrites(registry: OpenAPIRegistry): void {
  describeDestinations(registry);
  describeResendAndReplays(registry);
}
