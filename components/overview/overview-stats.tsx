import Link from "next/link";
import { EmptyState } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import type { Overview } from "@/lib/overview/overview";
import { Stat, StatSkeleton } from "./stat";

const statGrid = "grid gap-4 sm:grid-cols-3";

/** What is connected and whether webhooks are arriving, or how to connect the first tenant; streams in when counted. */
export async function OverviewStats({ overview: pending, isAdmin }: { overview: Promise<Overview>; isAdmin: boolean }) {
  const overview = await pending;
  if (overview.connections === 0) {
    return (
      <EmptyState
        title="No tenant connected yet"
        action={
          isAdmin ? (
            <Link className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-indigo-700" href="/connections/new">
              Add a connection
            </Link>
          ) : undefined
        }
      >
        {isAdmin
          ? "Connect a tenant to look up its data points, manage its email OTP configuration and receive its webhooks."
          : "Webhook history appears here once an administrator has connected a tenant."}
      </EmptyState>
    );
  }
  return (
    <div className={statGrid}>
      <Stat label="Connected tenants" value={overview.connections} href={isAdmin ? "/connections" : "/data-points"} />
      <Stat label="Webhook events, last 24 h" value={overview.eventsLastDay} href="/webhooks">
        Last received: <Time iso={overview.lastEventAt} />
      </Stat>
      <Stat label="Rejected deliveries, last 24 h" value={overview.rejectionsLastDay} href="/webhooks?tab=rejections">
        {overview.rejectionsLastDay > 0 ? "Open the Rejections tab to see why." : "None refused."}
      </Stat>
    </div>
  );
}

/** The three stats' shape while the numbers are counted. */
export function OverviewStatsSkeleton() {
  return (
    <div className={statGrid}>
      <StatSkeleton />
      <StatSkeleton />
      <StatSkeleton />
    </div>
  );
}
