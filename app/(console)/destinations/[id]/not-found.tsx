import { EmptyState, PageHeader } from "@/components/ui/card";
import { Link } from "@/components/ui/link";

export default function DestinationNotFound() {
  return (
    <>
      <PageHeader title="Destination not found" />
      <EmptyState
        title="No such destination"
        action={
          <Link className="text-sm font-medium text-indigo-700 underline dark:text-indigo-300" href="/destinations">
            Back to the destinations
          </Link>
        }
      >
        There is no destination at this address: it was removed, or the link is mistyped.
      </EmptyState>
    </>
  );
}
