import "server-only";

import { OpenApiGeneratorV31, OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";

import { authenticatorExpiredDataSchema } from "@/lib/webhooks/schemas";

import { describeRoutes } from "./routes";

/**
 * The API's OpenAPI 3.1 document, generated from the zod schemas the handlers parse with (./routes.ts) and those of
 * their answers (./responses.ts). Components are named with zod's own `.meta({ id })` on copies made here (zod is
 * not extended), so the client-safe schemas.ts files stay as the browser loads them.
 */

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

/** What each query parameter means, by name: the schemas say its type, these words say what it selects. */
const PARAMETER_TEXT: Record<string, string> = {
  connectionId: "A connection's id, or `all` for every connection.",
  type: "The event type; `all` for every type.",
  verificationMethod: "The authenticator's verification method, e.g. PASSKEY, SMS (case-insensitive).",
  devicePlatform: "The device platform, e.g. IOS, ANDROID, WEB (case-insensitive).",
  userId: "The user's id in the service.",
  userIdMatch: "How userId matches: the whole id, or its start.",
  userAuthenticatorId: "The user authenticator's id.",
  received: "Received within the last hour, day or week; receivedFrom/receivedTo give exact bounds instead.",
  receivedFrom: "Received at or after this time (ISO 8601 with an offset, e.g. 2026-01-31T00:00:00Z).",
  receivedTo: "Received before this time (ISO 8601 with an offset).",
  expiresFrom: "The authenticator expired at or after this time.",
  expiresTo: "The authenticator expired before this time.",
  test: "The console's own test events: `only` them, or `exclude` them (default: both kinds).",
  delay: "How long after expiring the event arrived: one of the overview histogram's buckets.",
  reason: "Why the receiver refused the delivery.",
  cursor: "A page's `nextCursor` (older rows) or `newerCursor` (newer rows), from the previous answer.",
  limit: "Rows per page.",
  format: "What to stream: CSV or one JSON object a line.",
  kind: "The alert's kind, or `all`.",
  state: "open or resolved, or `all`.",
  muted: "`yes`: muted now; `no`: not muted now.",
};

function build(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "An API token (`tcapi_…`) an admin made on the console's token page or with `npm run tokens`: `Authorization: Bearer <token>`. Its role (support or admin) works as a session of that role; routes under /api need the `api` scope, /api/metrics the `metrics` scope.",
  });
  registry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: "next-auth.session-token",
    description:
      "A browser's signed-in session (`__Secure-next-auth.session-token` when the console is served over https).",
  });
  describeRoutes(registry);
  // The data of the one event type the console reads: named beside the envelope it arrives in.
  const components = [
    { type: "schema" as const, schema: authenticatorExpiredDataSchema.meta({ id: "AuthenticatorExpiredData" }) },
  ];

  const document = new OpenApiGeneratorV31([...registry.definitions, ...components]).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Tenant Console API",
      version: "1",
      description:
        "The console's webhook log, forwarding and alerts for scripts and monitoring, and the webhook receiver the service posts to. Errors are `{ error, errorDescription }`; times are UTC ISO 8601.",
    },
    servers: [{ url: "/", description: "The console that serves this document." }],
  });
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const parameter of (operation as { parameters?: Array<{ in: string; name: string; description?: string }> })
        .parameters ?? []) {
        if (parameter.in === "query") parameter.description ??= PARAMETER_TEXT[parameter.name];
      }
    }
  }
  return document;
}

let built: OpenApiDocument | undefined;

/** The document, built once per process: it changes only with the code. */
export function openApiDocument(): OpenApiDocument {
  built ??= build();
  return built;
}
