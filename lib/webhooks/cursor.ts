import "server-only";

import type { IgnoredFilter } from "./filters";

export class BadCursorError extends Error {
  override name = "BadCursorError";
}

/** A page query's answer, with the filters it ran with and the parameters of the link it left out. */
export type CursorFallback<F, R> = { result: R; filters: F; ignored: IgnoredFilter[] };

/**
 * For the page: runs a page query, and when the link's cursor is one this log did not make (an old or
 * edited link) shows the newest page instead and names the cursor among the parameters left out.
 */
export async function withCursorFallback<F extends { cursor?: string }, R>(
  filters: F,
  ignored: IgnoredFilter[],
  run: (filters: F) => Promise<R>,
): Promise<CursorFallback<F, R>> {
  try {
    return { result: await run(filters), filters, ignored };
  } catch (error) {
    if (!(error instanceof BadCursorError)) throw error;
    const newest = { ...filters, cursor: undefined };
    return {
      result: await run(newest),
      filters: newest,
      ignored: [...ignored, { name: "cursor", label: "Page", message: "not a page of this log" }],
    };
  }
}

/**
 * Keyset cursor: the (received time, id) of the row a page starts after, and which way it reads. Stable
 * while new rows arrive at the top. `older` pages read the index newest first from below the row; `newer`
 * pages read it oldest first from above the row (then the page is reversed), so both are index scans.
 */
export type CursorDirection = "older" | "newer";
type Cursor = { at: string; id: number; direction: CursorDirection };

export function encodeCursor(cursor: Cursor): string {
  // Older cursors, the common case, keep the two-element form links already carry.
  const value = cursor.direction === "newer" ? [cursor.at, cursor.id, "newer"] : [cursor.at, cursor.id];
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export function decodeCursor(value: string): Cursor {
  try {
    const [at, id, direction = "older"] = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as unknown[];
    if (
      typeof at === "string" &&
      !Number.isNaN(Date.parse(at)) &&
      Number.isSafeInteger(id) &&
      (direction === "older" || direction === "newer")
    ) {
      return { at, id: id as number, direction };
    }
  } catch {
    /* fall through */
  }
  throw new BadCursorError("cursor: not a cursor this API returned");
}
