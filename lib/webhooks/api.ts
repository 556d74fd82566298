import "server-only";

import { apiError, apiJson, authenticateApi } from "@/lib/auth/guards";

import { BadCursorError, decodeCursor } from "./cursor";
import {
  EVENT_EXPORT_COLUMNS,
  exportResponse,
  exportStream,
  REJECTION_EXPORT_COLUMNS,
  type ExportFormat,
} from "./export";
import { iterateWebhookEvents, iterateWebhookRejections } from "./export-rows";
import { parseEventFilters, parseRejectionFilters } from "./filters";
import { eventIdParamSchema, exportFormatSchema } from "./schemas";
import { getWebhookEvent, listWebhookEvents, listWebhookRejections } from "./webhooks";

/**
 * The log's route handlers' bodies (a session or an API token of the `api` scope, both roles); the files under
 * app/api only delegate.
 */

function badQuery(errorDescription: string) {
  return apiError(400, "invalid_request", errorDescription);
}

async function withCursorErrors(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof BadCursorError) return badQuery(error.message);
    throw error;
  }
}

/**
 * An export's cursor is read before the answer starts: once the 200 and its headers are sent, a bad
 * cursor could only cut the stream short. (The rows themselves are read as the client pulls them.)
 */
function checkCursor(cursor: string | undefined): void {
  if (cursor) decodeCursor(cursor);
}

/** The export's `format` (absent: CSV); undefined when it is neither. */
function exportFormat(format: string | null): ExportFormat | undefined {
  return exportFormatSchema.safeParse(format ?? "csv").data;
}

/** The id of /api/webhook-events/{id}, or the 400 naming it. */
function badEventId(id: string): Response | null {
  const parsed = eventIdParamSchema.safeParse(id);
  return parsed.success ? null : badQuery(`id: ${parsed.error.issues[0]!.message}`);
}

export async function handleListEvents(request: Request): Promise<Response> {
  const user = await authenticateApi(request, "support");
  if (user instanceof Response) return user;
  const parsed = parseEventFilters(new URL(request.url).searchParams);
  if (!parsed.ok) return badQuery(parsed.errorDescription);
  return withCursorErrors(async () => {
    const page = await listWebhookEvents(parsed.filters, user.role);
    return apiJson({ events: page.items, nextCursor: page.nextCursor, newerCursor: page.newerCursor });
  });
}

export async function handleGetEvent(request: Request, id: string): Promise<Response> {
  const user = await authenticateApi(request, "support");
  if (user instanceof Response) return user;
  const bad = badEventId(id);
  if (bad) return bad;
  const event = await getWebhookEvent(Number(id), user.role);
  if (!event) return apiError(404, "not_found", `No webhook event with id ${id}.`);
  return apiJson(event);
}

export async function handleExportEvents(request: Request): Promise<Response> {
  const user = await authenticateApi(request, "support");
  if (user instanceof Response) return user;
  const params = new URL(request.url).searchParams;
  const format = exportFormat(params.get("format"));
  if (!format) return badQuery("format: must be csv or ndjson");
  params.delete("format");
  params.delete("limit");
  const parsed = parseEventFilters(params);
  if (!parsed.ok) return badQuery(parsed.errorDescription);
  return withCursorErrors(async () => {
    checkCursor(parsed.filters.cursor);
    const rows = iterateWebhookEvents(parsed.filters, user.role);
    return exportResponse(exportStream(rows, format, EVENT_EXPORT_COLUMNS), format, "webhook-events");
  });
}

export async function handleListRejections(request: Request): Promise<Response> {
  const user = await authenticateApi(request, "support");
  if (user instanceof Response) return user;
  const params = new URL(request.url).searchParams;
  const format = params.get("format");
  params.delete("format");
  const parsed = parseRejectionFilters(params);
  if (!parsed.ok) return badQuery(parsed.errorDescription);
  return withCursorErrors(async () => {
    const exportAs = format === null ? undefined : exportFormat(format);
    if (exportAs) {
      checkCursor(parsed.filters.cursor);
      const rows = iterateWebhookRejections(parsed.filters);
      return exportResponse(exportStream(rows, exportAs, REJECTION_EXPORT_COLUMNS), exportAs, "webhook-rejections");
    }
    if (format !== null) return badQuery("format: must be csv or ndjson");
    const page = await listWebhookRejections(parsed.filters);
    return apiJson({ rejections: page.items, nextCursor: page.nextCursor, newerCursor: page.newerCursor });
  });
}
