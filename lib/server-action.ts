import "server-only";
import { unstable_rethrow } from "next/navigation";
import { authorizeAction, isActionFailure, type ActionFailure, type SessionUser } from "@/lib/auth/guards";
import type { Role } from "@/lib/auth/roles";
import { actionCrashMessage } from "@/lib/call-action";
import { errorMessage, logger } from "@/lib/logger";

/**
 * Runs a server action's work so that an error it throws never reaches Next. Next prints an error a
 * server action throws, whole, before it calls instrumentation.ts's onRequestError (the built server's
 * RouteModule.onRequestError), and a failed query's message is its SQL with every parameter: a password
 * hash, a set-password token's hash, an email. Here it is logged through lib/logger (errorMessage keeps a
 * database error's SQLSTATE and names, never a value) and the page gets the words callAction gives any
 * crash. Next's own signals (redirect(), notFound(), forbidden()) go on to Next.
 */
export async function runAction<Result extends { ok: boolean }>(action: string, work: () => Promise<Result>): Promise<Result | ActionFailure> {
  try {
    return await work();
  } catch (error) {
    unstable_rethrow(error);
    logger.error("server action failed", { action, error: errorMessage(error) });
    return { ok: false, error: actionCrashMessage };
  }
}

/** runAction for an action that needs a signed-in user with `role` (ARCHITECTURE.md rule 1: authorizeAction). */
export async function runActionAs<Result extends { ok: boolean }>(
  role: Role,
  action: string,
  work: (user: SessionUser) => Promise<Result>,
): Promise<Result | ActionFailure> {
  return runAction(action, async () => {
    const user = await authorizeAction(role);
    return isActionFailure(user) ? user : work(user);
  });
}
