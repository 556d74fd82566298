import { Alert, Card, EmptyState, Skeleton } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import type { ConnectionChoice } from "@/lib/connections/types";
import type { EmailOtpStatus } from "@/lib/email-otp/types";
import { regionLabels } from "@/lib/service/regions";

import { DeleteEmailOtp } from "./delete-email-otp";

const fieldRows = "mt-4 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-2 text-sm";

/** The tenant's email OTP configuration as the service reports it; streams in when the service answers. */
export async function EmailOtpCard({
  connection,
  status: pending,
}: {
  connection: ConnectionChoice;
  status: Promise<EmailOtpStatus>;
}) {
  const status = await pending;
  if (status.kind === "absent") {
    return (
      <EmptyState title="No email OTP configuration">
        {connection.name} has no email OTP configuration. Users of this tenant cannot enroll email one-time passcodes.
      </EmptyState>
    );
  }
  if (status.kind === "failure") {
    return (
      <Alert tone="danger" title="Could not read the configuration">
        <p>{status.message}</p>
        {status.failure === "unauthorized" ? (
          <Link className="font-medium underline" href={`/connections/${connection.id}`}>
            Replace the key of {connection.name}
          </Link>
        ) : null}
      </Alert>
    );
  }
  return (
    <Card>
      <div className="flex items-center justify-between gap-4">
        <h2 className="text-base font-semibold">Configured</h2>
        <DeleteEmailOtp
          connectionId={connection.id}
          connectionName={connection.name}
          regionLabel={regionLabels[connection.region]}
        />
      </div>
      <dl className={fieldRows} data-testid="email-otp-fields">
        {status.fields.map((f) => (
          <div key={f.name} className="contents">
            <dt className="text-slate-500 dark:text-slate-400">{f.label}</dt>
            <dd className="wrap-anywhere">{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-4 text-xs text-slate-500 dark:text-slate-400">
        Provider credentials are never returned by the service and never shown here.
      </p>
    </Card>
  );
}

/** The card's shape while the service is asked: heading, button, six field rows and the note. */
export function EmailOtpCardSkeleton() {
  return (
    <Card>
      <div className="flex items-center justify-between gap-4">
        <Skeleton className="h-6 w-28" />
        <Skeleton className="h-9 w-44" />
      </div>
      <div className={fieldRows}>
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="contents">
            <Skeleton className="h-5 w-32" />
            <Skeleton className="h-5 w-48 max-w-full" />
          </div>
        ))}
      </div>
      <Skeleton className="mt-4 h-4 w-80 max-w-full" />
    </Card>
  );
}
