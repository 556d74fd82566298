/** A server action's refusal, or a failure it could not finish: the message to show. */
export type ActionFailure = { ok: false; error: string };

/** What a server action answers (ARCHITECTURE.md, rule 5): a success with its fields, or a message to show. */
export type ActionResult<Fields extends object = object> = ({ ok: true } & Fields) | ActionFailure;

export const actionCrashMessage =
  "The console could not finish this (a server or network error), so it is not confirmed as done. Try again in a moment.";

/**
 * Client-side: runs a server action so that one which throws (the console's database down, the
 * network gone) comes back as a failure the page shows like any other, instead of an unhandled error.
 */
export async function callAction<T extends { ok: boolean }>(action: () => Promise<T>): Promise<T | ActionFailure> {
  try {
    return await action();
  } catch {
    return { ok: false, error: actionCrashMessage };
  }
}
