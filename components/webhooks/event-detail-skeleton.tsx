import { Skeleton } from "@/components/ui/card";

/** The event drawer's shape while its code or the event itself loads. */
export function EventDetailSkeleton() {
  return (
    <div aria-busy="true" className="space-y-3">
      <span className="sr-only">Loading the event…</span>
      <Skeleton className="h-8 w-full" />
      <Skeleton className="h-64 w-full" />
      <Skeleton className="h-48 w-full" />
    </div>
  );
}
