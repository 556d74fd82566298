import { Skeleton } from "@/components/ui/card";

/**
 * The destination list's loading shape. A file of its own, not the list's client module: the Destinations page's
 * loading.tsx is loaded on every page below it (a destination's), which would carry the list's code for nothing.
 */
export function DestinationListSkeleton() {
  return (
    <div className="space-y-3" aria-hidden="true">
      <Skeleton className="h-6 w-40" />
      <Skeleton className="h-36 w-full" />
      <Skeleton className="h-36 w-full" />
    </div>
  );
}
