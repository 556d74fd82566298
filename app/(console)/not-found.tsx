import { EmptyState } from "@/components/ui/card";
import { Link } from "@/components/ui/link";

export default function ConsoleNotFound() {
  return (
    <EmptyState
      title="Not found"
      action={
        <Link className="text-sm font-medium text-indigo-700 underline dark:text-indigo-300" href="/">
          Back to the overview
        </Link>
      }
    >
      There is nothing at this address, or it was removed.
    </EmptyState>
  );
}
