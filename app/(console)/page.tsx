import type { Metadata } from "next";
import Link from "next/link";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import { requireUser } from "@/lib/auth/guards";
import { getOverview } from "@/lib/overview/overview";

export const metadata: Metadata = { title: "Overview" };

function Stat({ label, value, href, children }: { label: string; value: number; href: string; children?: React.ReactNode }) {
  return (
    <Card>
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-1 text-3xl font-semibold tabular-nums text-slate-900">
        <Link href={href} className="hover:text-indigo-700">
          {value.toLocaleString("en")}
        </Link>
      </p>
      {children ? <p className="mt-1 text-xs text-slate-500">{children}</p> : null}
    </Card>
  );
}

export default async function OverviewPage() {
  const user = await requireUser();
  const overview = await getOverview();
  const isAdmin = user.role === "admin";
  return (
    <>
      <PageHeader title="Overview" description={`Signed in as ${user.email}.`} />
      {overview.connections === 0 ? (
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
      ) : (
        <div className="grid gap-4 sm:grid-cols-3">
          <Stat label="Connected tenants" value={overview.connections} href={isAdmin ? "/connections" : "/data-points"} />
          <Stat label="Webhook events, last 24 h" value={overview.eventsLastDay} href="/webhooks">
            Last received: <Time iso={overview.lastEventAt} />
          </Stat>
          <Stat label="Rejected deliveries, last 24 h" value={overview.rejectionsLastDay} href="/webhooks?tab=rejections">
            {overview.rejectionsLastDay > 0 ? "Open the Rejections tab to see why." : "None refused."}
          </Stat>
        </div>
      )}
    </>
  );
}
