import "server-only";

import { eq } from "drizzle-orm";
import type { NextResponse } from "next/server";
import type { z, ZodError } from "zod";

import { apiError, type SessionUser } from "@/lib/auth/guards";
import { getDb } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";

/** Reading what an API request sends: its query, path or JSON body through a zod schema, a problem named. */

/** The first problem of a parse, named as the route's parameter or field: "connectionId: must be …". */
export function describedIssue(error: ZodError): string {
  const issue = error.issues[0]!;
  if (issue.code === "unrecognized_keys") return `${issue.keys.join(", ")}: not a parameter of this route`;
  return issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}

export type Parsed<T> = { ok: true; data: T } | { ok: false; response: NextResponse };

/** A value through a schema, or the 400 that names its first problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): Parsed<z.output<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, response: apiError(400, "invalid_request", describedIssue(parsed.error)) };
}

/** The most a JSON body of the API may hold. */
const MAX_JSON_BODY_BYTES = 64 * 1024;

/** A request's JSON body through a schema, or the 400 that says what is wrong with it. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<Parsed<z.output<S>>> {
  const refuse = (description: string) => ({
    ok: false as const,
    response: apiError(400, "invalid_request", description),
  });
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? ""))
    return refuse("Send the body as JSON, with Content-Type: application/json.");
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_JSON_BODY_BYTES) return refuse("The body is larger than 64 KiB.");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse("The body is not valid JSON.");
  }
  return parseInput(schema, body);
}

/**
 * Whom an API change is recorded as: the caller's console user, or, for an operator's token that acts for no
 * user (its caller's id is the token's), nobody by id and the token by name, as rows referring to users need.
 */
export async function apiActor(
  caller: SessionUser,
): Promise<{ id: string; email: string } | { id: null; email: string }> {
  const db = await getDb();
  const [user] = await db
    .select({ id: consoleUsers.id })
    .from(consoleUsers)
    .where(eq(consoleUsers.id, caller.id))
    .limit(1);
  return user ? { id: caller.id, email: caller.email } : { id: null, email: caller.email };
}
