import Form from "next/form";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/card";
import { Field, FieldSkeleton, Input } from "@/components/ui/input";

const formRow = "flex max-w-xl items-end gap-3";

/**
 * A GET form: the id lands in the URL, so a lookup is a link. `next/form` navigates on the client, so
 * the URL changes and the result's skeleton shows at once; without JavaScript it is a plain form.
 */
export function UserLookupForm({ connectionName, userId, error }: { connectionName: string; userId: string; error: string | undefined }) {
  return (
    <Form action="/users" className={formRow} role="search" aria-label="Look up a user">
      <div className="flex-1">
        <Field
          id="userId"
          label={`User id in ${connectionName}`}
          hint="Exact, as your application sends it. A lookup records the action console_authenticator_lookup for this id at the tenant."
          error={error}
        >
          <Input
            id="userId"
            name="userId"
            defaultValue={userId}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "userId-error" : "userId-hint"}
          />
        </Field>
      </div>
      <Button type="submit">Look up</Button>
    </Form>
  );
}

/** The form's shape (label, field, two-line hint, button) for the page's loading state, before the connection is known. */
export function UserLookupFormSkeleton() {
  return (
    <div className={formRow}>
      <FieldSkeleton className="flex-1" hint />
      <Skeleton className="h-9 w-24" />
    </div>
  );
}
