import type { FieldValues, Resolver } from "react-hook-form";

/**
 * A react-hook-form resolver that validates with a zod schema fetched on first use: a form's page ships
 * without zod (about 40 KB gzip of first-load JavaScript) and loads it, with the schema, when the user
 * first submits or leaves a field. `load` is a dynamic import of the schema, e.g.
 * `() => import("@/lib/team/schemas").then((m) => m.addTeamMemberSchema)`.
 * If the code cannot be fetched (the network dropped), the form is sent as it is and the server action,
 * which parses with the same schema, answers; the next validation tries the fetch again.
 */
export function lazyZodResolver<T extends FieldValues>(load: () => Promise<unknown>): Resolver<T> {
  let loading: Promise<Resolver<T>> | undefined;
  return async (values, context, options) => {
    loading ??= Promise.all([import("@hookform/resolvers/zod"), load()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema as Parameters<typeof zodResolver>[0]) as unknown as Resolver<T>,
    );
    try {
      return await (
        await loading
      )(values, context, options);
    } catch {
      loading = undefined;
      return { values, errors: {} };
    }
  };
}
