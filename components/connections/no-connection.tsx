import { EmptyState, PageHeader } from "@/components/ui/card";
import { Link } from "@/components/ui/link";

/** What a feature page that works on one tenant shows before any connection exists. */
export function NoConnection({ title, isAdmin }: { title: string; isAdmin: boolean }) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState title="No connection yet">
        {isAdmin ? (
          <p>
            <Link className="font-medium text-indigo-700 dark:text-indigo-300 underline" href="/connections/new">
              Add a connection
            </Link>{" "}
            to a tenant first.
          </p>
        ) : (
          <p>An administrator has to connect a tenant first.</p>
        )}
      </EmptyState>
    </>
  );
}
