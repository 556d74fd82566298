import { DestinationPageSkeleton } from "@/components/destinations/loading-shapes";

// Without it the Destinations list's loading state would show on the way here. The destination's name is not
// known before it is read, so the heading is a skeleton too.
export default function DestinationLoading() {
  return <DestinationPageSkeleton />;
}
