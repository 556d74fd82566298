import { Card, PageHeader, Skeleton } from "@/components/ui/card";

// Without it the connections list's loading state (its heading and table) would show on the way here.
export default function NewConnectionLoading() {
  return (
    <>
      <PageHeader title="New connection" />
      <Card>
        <div aria-busy="true">
          <span className="sr-only">Loading the form…</span>
          <Skeleton className="h-[30rem] max-w-xl" />
        </div>
      </Card>
    </>
  );
}
