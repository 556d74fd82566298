import { Badge } from "@/components/ui/badge";

/** Marks an event the console sent itself ("Send a test event" on the connection page), not the service. */
export function TestBadge() {
  return (
    <Badge
      tone="info"
      title="A test event: sent by the console's “Send a test event”, not by the service. Left out of the overview."
    >
      Test
    </Badge>
  );
}
