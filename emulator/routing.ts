import { ApiError, type Reply } from "./http";

export type Handler<Context> = (context: Context, params: string[]) => Promise<Reply> | Reply;

export interface Route<Context> {
  /** Anchored pattern over the path below the API's prefix; capture groups become params. */
  pattern: RegExp;
  methods: Partial<Record<string, Handler<Context>>>;
}

/** A malformed percent-escape names no resource: 404 rather than decodeURIComponent's URIError (a 500). */
function decodePathSegment(value: string, path: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ApiError(404, "not_found", `No resource at ${path} (malformed percent-escape).`);
  }
}

/**
 * Finds the route for a path: unknown path → 404 `not_found`,
 * known path with another method → 405 `method_not_allowed` with an `Allow` header.
 */
export async function dispatch<Context>(
  routes: readonly Route<Context>[],
  method: string,
  path: string,
  context: Context,
): Promise<Reply> {
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    const handler = route.methods[method];
    if (!handler) {
      const allow = Object.keys(route.methods).join(", ");
      throw new ApiError(405, "method_not_allowed", `Method ${method} is not allowed here.`, { Allow: allow });
    }
    return handler(
      context,
      match.slice(1).map((value) => decodePathSegment(value ?? "", path)),
    );
  }
  throw new ApiError(404, "not_found", `No resource at ${path}.`);
}
