import "server-only";

import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

import { alertFiltersSchema } from "@/lib/alerts/schemas";
import { replayIdSchema } from "@/lib/destinations/schemas";
import {
  eventFiltersSchema,
  exportFormatSchema,
  rejectionFiltersSchema,
  webhookEnvelopeSchema,
} from "@/lib/webhooks/schemas";

import * as bodies from "./responses";
import { badRequest, error, eventId, json, ok, retryAfter, signedIn } from "./route-helpers";
import { describeErasure } from "./routes-erasure";
import { describeForwardingWrites } from "./routes-forwarding";

/**
 * Every route under app/api but next-auth's, /api/metrics included, described for the OpenAPI document; queries and
 * paths are the zod schemas the handlers parse with, bodies are ./responses. A new route is one
 * `registry.registerPath` below (api-docs.test.ts fails until it is).
 */

const streamed = (what: string) => ({
  "text/csv": {
    schema: {
      type: "string" as const,
      description: `${what} as CSV: a header line, then one line a row (cells that would start a formula are prefixed with ').`,
    },
  },
  "application/x-ndjson": {
    schema: { type: "string" as const, description: `${what} as newline-delimited JSON: one object a line.` },
  },
});
const attachment = {
  "Content-Disposition": {
    description: 'attachment; filename="….csv" or "….ndjson"',
    schema: { type: "string" as const },
  },
};

/** A list for support and admins: its filters in the query (a bad one is a 400), one page as JSON. */
function describeList(
  registry: OpenAPIRegistry,
  [path, tag, summary, query, description, body]: [string, string, string, z.ZodObject, string, z.ZodType],
) {
  signedIn(registry, "support", {
    method: "get",
    path,
    tags: [tag],
    summary,
    request: { query },
    responses: { 200: ok(description, body), 400: badRequest },
  });
}

function describeLog(registry: OpenAPIRegistry) {
  describeList(registry, [
    "/api/webhook-events",
    "Webhook log",
    "One page of received events, newest first",
    eventFiltersSchema,
    "A page of events and the cursors of the pages beside it.",
    bodies.eventPageSchema,
  ]);
  signedIn(registry, "support", {
    method: "get",
    path: "/api/webhook-events/export",
    tags: ["Webhook log"],
    summary: "Every event the filters select, streamed as CSV or NDJSON",
    description: "The list's filters without `limit`: the whole filtered set, read as the client pulls it.",
    request: { query: eventFiltersSchema.omit({ limit: true }).extend({ format: exportFormatSchema.default("csv") }) },
    responses: {
      200: { description: "The events, streamed.", headers: attachment, content: streamed("The events") },
      400: badRequest,
    },
  });
  // An event's detail and its forwards: the same path id, read the same way, and the same 400 and 404.
  const byEventId = ([path, tag, summary, description, body]: [string, string, string, string, z.ZodType]) =>
    signedIn(registry, "support", {
      method: "get",
      path,
      tags: [tag],
      summary,
      request: { params: eventId },
      responses: { 200: ok(description, body), 400: badRequest, 404: error("No event has this id: `not_found`.") },
    });
  byEventId([
    "/api/webhook-events/{id}",
    "Webhook log",
    "One event, with its raw body",
    "The event.",
    bodies.webhookEventDetailSchema,
  ]);
  byEventId([
    "/api/webhook-events/{id}/forwards",
    "Forwarding",
    "Where an event was forwarded: each destination of its connection, its deliveries and their attempts",
    "The event's connection's destinations.",
    bodies.eventForwardsListSchema,
  ]);
  signedIn(registry, "support", {
    method: "get",
    path: "/api/webhook-rejections",
    tags: ["Webhook log"],
    summary: "Deliveries the receiver refused, newest first; with format, all of them streamed",
    description:
      "Without `format`: one page as JSON. With `format=csv` or `format=ndjson`: the whole filtered set, streamed (`limit` is then ignored).",
    request: { query: rejectionFiltersSchema.extend({ format: exportFormatSchema.optional() }) },
    responses: {
      200: {
        description: "A page of refusals, or (with format) all of them.",
        headers: attachment,
        content: { ...json(bodies.rejectionPageSchema), ...streamed("The refusals") },
      },
      400: badRequest,
    },
  });
}

function describeForwardingAndAlerts(registry: OpenAPIRegistry) {
  signedIn(registry, "admin", {
    method: "get",
    path: "/api/replays/{id}",
    tags: ["Forwarding"],
    summary: "A replay's progress",
    request: {
      params: z.object({
        id: replayIdSchema.shape.replayId.meta({
          description: "The replay's id, as starting it on the log's page answered.",
        }),
      }),
    },
    responses: {
      200: ok("How far the replay has gone.", bodies.replayProgressSchema),
      404: error("No replay has this id: `not_found`."),
    },
  });
  describeList(registry, [
    "/api/alerts",
    "Alerts",
    "The alerts the filters select, open ones first",
    alertFiltersSchema,
    "The alerts, how many match, and when the evaluator last ran.",
    bodies.alertPageSchema,
  ]);
}

const RECEIVER_METHODS = ["get", "head", "put", "patch", "delete", "options"] as const;

function describeReceiver(registry: OpenAPIRegistry) {
  const token = z.object({ token: z.string().meta({ description: "The connection's webhook URL token." }) });
  const receiverError = (description: string) => error(description);
  registry.registerPath({
    method: "post",
    path: "/api/webhooks/{token}",
    tags: ["Receiver"],
    summary: "Receive one webhook from the service",
    description:
      "The service's delivery of an event (`authenticator.expired` and any other type). Answers 200 only once the event is stored; 503 only when the database fails, so the service retries. Refusals are recorded in /api/webhook-rejections. The URL's token and the signature are the credentials.",
    security: [],
    request: {
      params: token,
      headers: z.object({
        "x-signature-v2": z.string().optional().meta({
          description:
            "`t=<unix seconds>,v2=<base64 HMAC-SHA256 of t.body>[,v2=…]`, keyed with the connection's server API secret key. Required when the connection has server keys; 5 minutes' tolerance.",
        }),
      }),
      body: { required: true, content: json(webhookEnvelopeSchema.meta({ id: "WebhookEnvelope" })) },
    },
    responses: {
      200: ok("Stored (or a redelivery of a stored event).", bodies.receivedSchema),
      400: receiverError("Not UTF-8 JSON, or not an envelope the console can store: `invalid_request`."),
      401: receiverError("The signature is missing, wrong, or its timestamp more than 5 minutes off: `unauthorized`."),
      404: receiverError("No connection has this webhook URL: `not_found`."),
      413: receiverError("The body is larger than the receiver takes (256 KiB): `payload_too_large`."),
      415: receiverError("Content-Type is not application/json: `unsupported_media_type`."),
      503: receiverError("The event could not be stored; the service should retry: `unavailable`."),
    },
  });
  for (const method of RECEIVER_METHODS) {
    registry.registerPath({
      method,
      path: "/api/webhooks/{token}",
      tags: ["Receiver"],
      summary: `${method.toUpperCase()} is not allowed on a webhook URL`,
      security: [],
      request: { params: token },
      responses: {
        405: error("A webhook URL accepts POST only: `method_not_allowed`.", {
          Allow: { description: "POST", schema: { type: "string" } },
        }),
      },
    });
  }
}

function describeService(registry: OpenAPIRegistry) {
  registry.registerPath({
    method: "get",
    path: "/api/health",
    tags: ["Service"],
    summary: "Liveness",
    description: "200 when the database answers, 503 when it does not.",
    security: [],
    responses: {
      200: ok("Up, with a database.", bodies.healthSchema),
      503: ok("The database does not answer.", bodies.healthSchema),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/ready",
    tags: ["Service"],
    summary: "Readiness",
    description:
      "200 once started (migrated, jobs running) with a database that answers; 503 while starting, from the moment " +
      "a stop begins (a load balancer takes the instance out before it closes), and while the database does not answer.",
    security: [],
    responses: {
      200: ok("Serving: send it traffic.", bodies.readySchema),
      503: ok("Starting, draining for a stop, or without a database.", bodies.readySchema),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/openapi.json",
    tags: ["Service"],
    summary: "This document",
    description: "It holds no data, so it needs no sign-in.",
    security: [],
    responses: {
      200: {
        description: "The OpenAPI 3.1 document.",
        content: { "application/json": { schema: { type: "object" } } },
      },
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/metrics",
    tags: ["Service"],
    summary: "Prometheus metrics (text format)",
    description:
      "This instance's counters and histograms, the database's figures (the same on every instance) and the process's. " +
      "Needs a bearer token: the operator's `CONSOLE_METRICS_TOKEN`, or an API token with the `metrics` scope; never a session.",
    security: [{ bearerAuth: [] }],
    "x-required-scope": "metrics",
    responses: {
      200: {
        description: "The metrics, in Prometheus' text format 0.0.4.",
        content: { "text/plain": { schema: { type: "string" } } },
      },
      401: error("No token, or not one for metrics: `unauthorized`."),
      403: error("An API token without the `metrics` scope: `forbidden`."),
      429: error(
        "Too many bad bearer tokens (matching none) from this address; a working token is never refused: `too_many_requests`.",
        retryAfter,
      ),
    },
  });
}

export function describeRoutes(registry: OpenAPIRegistry): void {
  describeLog(registry);
  describeForwardingAndAlerts(registry);
  describeForwardingWrites(registry);
  describeErasure(registry);
  describeReceiver(registry);
  describeService(registry);
}
