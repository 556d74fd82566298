import Form from "next/form";

import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/card";
import { Input } from "@/components/ui/input";

/**
 * A GET form (`next/form`): the id lands in the URL, so a lookup is a link, and the result's skeleton shows at once.
 * It sends the connection it was asked in (`connection=<id>`): the page looks up only there, so a later switch of
 * connection fills in the form but looks nothing up.
 */
export function UserLookupForm({
  connectionId,
  connectionName,
  userId,
  error,
}: {
  connectionId: string;
  connectionName: string;
  userId: string;
  error: string | undefined;
}) {
  return (
    <Form action="/users" className="max-w-xl space-y-1.5" role="search" aria-label="Look up a user">
      <label htmlFor="userId" className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        User id in {connectionName}
      </label>
      <div className="flex items-start gap-3">
        <Input
          id="userId"
          name="userId"
          defaultValue={userId}
          autoComplete="off"
          spellCheck={false}
          className="min-w-0 flex-1"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "userId-error userId-hint" : "userId-hint"}
        />
        <input type="hidden" name="connection" value={connectionId} />
        <Button type="submit" className="h-9 shrink-0">
          Look up
        </Button>
      </div>
      {error ? (
        <p id="userId-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <p id="userId-hint" className="text-xs text-slate-600 dark:text-slate-400">
        Exact, as your application sends it. A lookup records the action console_authenticator_lookup for this id at the
        tenant.
      </p>
    </Form>
  );
}

/** The form's shape (label, field and button on one row, two-line hint) for the page's loading state. */
export function UserLookupFormSkeleton() {
  return (
    <div className="max-w-xl space-y-1.5">
      <Skeleton className="h-5 w-32" />
      <div className="flex gap-3">
        <Skeleton className="h-9 flex-1" />
        <Skeleton className="h-9 w-24" />
      </div>
      <Skeleton className="h-8 w-full" />
    </div>
  );
}
