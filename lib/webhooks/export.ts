import "server-only";
import { EXPIRED_DATA_FIELDS } from "./types";

export type ExportFormat = "csv" | "ndjson";

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  // Quote when needed; a leading = + - @ is prefixed so a spreadsheet does not run it as a formula.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Streams rows pulled one at a time from an async iterator: nothing is produced before the reader
 * asks for it (highWaterMark 0), so memory stays constant whatever the number of rows.
 */
export function exportStream<T extends Record<string, unknown>>(
  rows: AsyncIterator<T>,
  format: ExportFormat,
  columns: ReadonlyArray<keyof T & string>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = format === "ndjson";
  const BATCH = 200;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let text = "";
        if (!headerSent) {
          text += columns.join(",") + "\r\n";
          headerSent = true;
        }
        for (let i = 0; i < BATCH; i++) {
          const next = await rows.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          const row = next.value;
          text += format === "csv" ? columns.map((c) => csvCell(row[c])).join(",") + "\r\n" : JSON.stringify(row) + "\n";
        }
        controller.enqueue(encoder.encode(text));
      },
      async cancel() {
        await rows.return?.(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

export function exportResponse(stream: ReadableStream<Uint8Array>, format: ExportFormat, baseName: string): Response {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="${baseName}-${stamp}.${format}"`,
      "Cache-Control": "no-store",
    },
  });
}

export const EVENT_EXPORT_COLUMNS = [
  "id",
  "connectionName",
  "eventId",
  "type",
  "tenantId",
  "envelopeTime",
  "firstReceivedAt",
  "lastReceivedAt",
  "deliveryCount",
  "signatureStatus",
  "isTest",
  ...EXPIRED_DATA_FIELDS,
] as const;

export const REJECTION_EXPORT_COLUMNS = ["id", "connectionName", "receivedAt", "status", "reason", "detail", "eventId", "bodySha256", "headers"] as const;
