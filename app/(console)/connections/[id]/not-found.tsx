import { EmptyState, PageHeader } from "@/components/ui/card";
import { Link } from "@/components/ui/link";

export default function ConnectionNotFound() {
  return (
    <>
      <PageHeader title="Connection not found" />
      <EmptyState
        title="No such connection"
        action={
          <Link className="text-sm font-medium text-indigo-700 underline dark:text-indigo-300" href="/connections">
            Back to the connections
          </Link>
        }
      >
        There is no connection at this address: it was deleted, or the link is mistyped.
      </EmptyState>
    </>
  );
}
