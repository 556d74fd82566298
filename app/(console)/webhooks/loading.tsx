import { Skeleton } from "@/components/ui/card";

export default function WebhooksLoading() {
  return (
    <div aria-busy="true" className="space-y-4">
      <span className="sr-only">Loading the webhook log…</span>
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-4 w-[32rem]" />
      <Skeleton className="h-24 w-full" />
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} className="h-9 w-full" />
      ))}
    </div>
  );
}
