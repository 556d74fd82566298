import type { Metadata } from "next";
import Link from "next/link";
import { NoConnection } from "@/components/connections/no-connection";
import { Alert, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { requireRole } from "@/lib/auth/guards";
import { getSelectedConnection } from "@/lib/connections/current";
import { regionLabels } from "@/lib/connections/regions";
import { getServiceConnection } from "@/lib/connections/repository";
import { getEmailOtpStatus } from "@/lib/email-otp/email-otp";
import { DeleteEmailOtp } from "./client";

export const metadata: Metadata = { title: "Email OTP" };

export default async function EmailOtpPage() {
  await requireRole("admin");
  const selected = await getSelectedConnection();
  const connection = selected ? await getServiceConnection(selected.id) : undefined;
  if (!selected || !connection) {
    return (
      <>
        <PageHeader title="Email OTP configuration" />
        <NoConnection isAdmin />
      </>
    );
  }
  const status = await getEmailOtpStatus(connection);
  return (
    <>
      <PageHeader
        title="Email OTP configuration"
        description={`The email one-time-passcode configuration of ${selected.name}, region ${regionLabels[selected.region]}.`}
      />
      <div className="max-w-2xl space-y-6">
        {status.kind === "present" ? (
          <Card>
            <div className="flex items-center justify-between gap-4">
              <h2 className="text-base font-semibold">Configured</h2>
              <DeleteEmailOtp connectionId={selected.id} connectionName={selected.name} regionLabel={regionLabels[selected.region]} />
            </div>
            <dl className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-2 text-sm" data-testid="email-otp-fields">
              {status.fields.map((f) => (
                <div key={f.name} className="contents">
                  <dt className="text-slate-500">{f.label}</dt>
                  <dd className="wrap-anywhere">{f.value}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-4 text-xs text-slate-500">Provider credentials are never returned by the service and never shown here.</p>
          </Card>
        ) : status.kind === "absent" ? (
          <EmptyState title="No email OTP configuration">
            {selected.name} has no email OTP configuration. Users of this tenant cannot enroll email one-time passcodes.
          </EmptyState>
        ) : (
          <Alert tone="danger" title="Could not read the configuration">
            <p>{status.message}</p>
            {status.failure === "unauthorized" ? (
              <Link className="font-medium underline" href={`/connections/${selected.id}`}>
                Replace the key of {selected.name}
              </Link>
            ) : null}
          </Alert>
        )}
      </div>
    </>
  );
}
