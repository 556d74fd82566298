import "server-only";

import { EXPIRED_DATA_FIELDS } from "./types";

export type ExportFormat = "csv" | "ndjson";

/** The first characters a spreadsheet may run as a formula: = + - @ tab CR. */
const FORMULA_START = new Set([61, 43, 45, 64, 9, 13]);
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (text === "") return text;
  // Quote when needed; a leading = + - @ is prefixed so a spreadsheet does not run it as a formula.
  const safe = FORMULA_START.has(text.charCodeAt(0)) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line (CRLF-terminated) of a row's columns. */
export function csvLine<T extends Record<string, unknown>>(row: T, columns: ReadonlyArray<keyof T & string>): string {
  let line = csvCell(row[columns[0]!]);
  for (let i = 1; i < columns.length; i++) line += "," + csvCell(row[columns[i]!]);
  return line + "\r\n";
}

/**
 * A timestamptz as the driver hands it over (PostgreSQL's text) in Date#toISOString's form, milliseconds truncated as
 * Date reads them: the ISO DateStyle text in UTC is rewritten as a string; anything else (another time zone, BC, a
 * 5-digit year) goes through Date, as drizzle reads a timestamp column.
 */
export function isoTimestamp(text: string): string;
export function isoTimestamp(text: string | null): string | null;
export function isoTimestamp(text: string | null): string | null {
  if (text === null) return null;
  const n = text.length;
  // "YYYY-MM-DD HH:MM:SS+00" or "YYYY-MM-DD HH:MM:SS.f+00" … "YYYY-MM-DD HH:MM:SS.ffffff+00"
  if (
    n >= 22 &&
    n <= 29 &&
    n !== 23 &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(10) === 32 &&
    text.endsWith("+00")
  ) {
    const day = text.slice(0, 10);
    const time = text.slice(11, 19);
    if (n === 22) return `${day}T${time}.000Z`;
    if (text.charCodeAt(19) === 46) return `${day}T${time}.${(text.slice(20, n - 3) + "00").slice(0, 3)}Z`;
  }
  return new Date(text).toISOString();
}

/** A keyset position: the exact received time (the driver's text) and id of the last row read. */
export type KeysetBound = { at: string; id: number };

/**
 * Every row of a log as pages of `run(after)`, newest first: each page one short statement of at most
 * `pageSize` rows past the previous page's last row (exactly, by the driver's text of its time; no
 * cursor is encoded), until a page comes back short. `boundOf` gives a row's position.
 */
export async function* keysetPages<R>(
  start: KeysetBound | undefined,
  pageSize: number,
  run: (after: KeysetBound | undefined, limit: number) => Promise<R[]>,
  boundOf: (row: R) => KeysetBound,
): AsyncGenerator<R[]> {
  let after = start;
  for (;;) {
    // A turn of the event loop before each statement: requests that arrived meanwhile (webhooks, health)
    // get to queue theirs. Without it, on PGlite (in this process, one statement at a time) the pages
    // follow one another in microtasks and nothing else is served until the export ends.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const rows = await run(after, pageSize);
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    after = boundOf(rows[rows.length - 1]!);
  }
}

/** Rows one at a time from pages (an async generator: the export's iterator, and `for await` in tests). */
export async function* rowsOfPages<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const page of pages) {
    for (let i = 0; i < page.length; i++) yield page[i]!;
  }
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
          text += format === "csv" ? csvLine(next.value, columns) : JSON.stringify(next.value) + "\n";
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

export const REJECTION_EXPORT_COLUMNS = [
  "id",
  "connectionName",
  "receivedAt",
  "status",
  "reason",
  "detail",
  "eventId",
  "bodySha256",
  "headers",
] as const;
