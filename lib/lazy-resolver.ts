import type { FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";

/** Whether the browser failed to fetch a chunk of code (a dynamic import), rather than the code failing. */
export function isChunkLoadFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === "ChunkLoadError" ||
    /loading (css )?chunk .* failed|failed to load chunk|failed to fetch dynamically imported module|importing a module script failed/i.test(
      error.message,
    )
  );
}

/**
 * A react-hook-form resolver that validates with a zod schema fetched on first use, so a form's page ships without
 * zod; `load` imports the schema. If that code cannot be fetched, the form is sent as it is and the server action,
 * which parses with the same schema, answers; the next validation tries again. Any other error is thrown.
 */
export function lazyZodResolver<Values extends FieldValues>(load: () => Promise<z.ZodType>): Resolver<Values> {
  let loading: Promise<Resolver<Values>> | undefined;
  return async (values, context, options) => {
    // The schema reads and answers the form's values: the server action parses them with it too.
    loading ??= Promise.all([import("@hookform/resolvers/zod"), load()]).then(([{ zodResolver }, schema]) =>
      zodResolver(schema as z.ZodType<Values, Values>),
    );
    let resolver: Resolver<Values>;
    try {
      resolver = await loading;
    } catch (error) {
      loading = undefined;
      if (!isChunkLoadFailure(error)) throw error;
      return { values, errors: {} };
    }
    return resolver(values, context, options);
  };
}
