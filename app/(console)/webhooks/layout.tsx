import { cookies } from "next/headers";

import { QueryProvider } from "@/components/ui/query-provider";
import { ViewerZoneProvider } from "@/components/webhooks/viewer-zone";
import { knownZone, VIEWER_ZONE_COOKIE } from "@/lib/viewer-zone";

/**
 * The log pages, follows live and opens events with TanStack Query; only this feature loads it. Times render in the
 * reader's zone, which every page leaves in a cookie (components/shell/zone-cookie.tsx).
 */
export default async function WebhooksLayout({ children }: { children: React.ReactNode }) {
  const zone = knownZone((await cookies()).get(VIEWER_ZONE_COOKIE)?.value);
  return (
    <QueryProvider>
      <ViewerZoneProvider zone={zone}>{children}</ViewerZoneProvider>
    </QueryProvider>
  );
}
