import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState, PageHeader } from "@/components/ui/card";
import { requireUser } from "@/lib/auth/guards";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const user = await requireUser();
  return (
    <>
      <PageHeader title="Overview" description={`Signed in as ${user.email}.`} />
      <EmptyState title="Nothing to summarise yet">
        {user.role === "admin" ? (
          <p>
            Add a <Link className="font-medium text-indigo-700 underline" href="/connections">connection</Link> to a tenant to
            look up its data points, manage its email OTP configuration and receive its webhooks.
          </p>
        ) : (
          <p>
            Webhook history appears under <Link className="font-medium text-indigo-700 underline" href="/webhooks">Webhooks</Link> once an
            administrator has connected a tenant.
          </p>
        )}
      </EmptyState>
    </>
  );
}
