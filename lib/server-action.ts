import "server-only";

import { revalidatePath } from "next/cache";
import { unstable_rethrow } from "next/navigation";
import type { ZodType } from "zod";

import { authorizeAction, isActionFailure, type SessionUser } from "@/lib/auth/guards";
import type { Role } from "@/lib/auth/roles";
import { actionCrashMessage, type ActionFailure } from "@/lib/call-action";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";

/**
 * A path to revalidate, as revalidatePath takes it: a page, or `[path, "layout"]` for a layout and every page under it.
 */
type Revalidation = string | readonly [path: string, type: "layout" | "page"];

type ActionOptions<Guard extends Role | null, Input> = {
  /** The action's name in the log. */
  name: string;
  /**
   * Who may run it (ARCHITECTURE.md rule 1: authorizeAction); null for a public action, whose input is its credential.
   */
  role: Guard;
  /**
   * For an action that does not hand its input to a lib function that parses it: the schema, the input,
   * and the answer when it does not parse.
   */
  parse?: { schema: ZodType<Input>; input: unknown; invalid: string };
  /** Revalidated once the action answers ok. */
  revalidate?: readonly Revalidation[];
  /** Revalidated after a failure the work answered too: one that may still have changed what the page shows. */
  revalidateOnFailure?: boolean;
};

/**
 * Every server action's body (ARCHITECTURE.md rule 5): the role check, the parse, the work, then the revalidation.
 * An error the work throws is logged through lib/logger and answered as a crash, never handed to Next, which would
 * print it whole (a query's parameters with it); Next's own signals (redirect(), notFound()) go on to Next.
 */
export async function runAction<Result extends { ok: boolean }, Guard extends Role | null, Input = undefined>(
  { name, role, parse, revalidate = [], revalidateOnFailure = false }: ActionOptions<Guard, Input>,
  work: (user: Guard extends Role ? SessionUser : null, input: Input) => Promise<Result>,
): Promise<Result | ActionFailure> {
  try {
    const user = role === null ? null : await authorizeAction(role);
    if (user && isActionFailure(user)) return user;
    let input = undefined as Input;
    if (parse) {
      const parsed = parse.schema.safeParse(parse.input);
      if (!parsed.success) return { ok: false, error: parse.invalid };
      input = parsed.data;
    }
    const result = await work(user as Guard extends Role ? SessionUser : null, input);
    if (result.ok || revalidateOnFailure) {
      for (const path of revalidate) {
        if (typeof path === "string") revalidatePath(path);
        else revalidatePath(...path);
      }
    }
    return result;
  } catch (error) {
    unstable_rethrow(error);
    logger.error("server action failed", { action: name, error: errorMessage(error) });
    return { ok: false, error: actionCrashMessage };
  }
}
