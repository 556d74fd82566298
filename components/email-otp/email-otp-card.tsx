import { Alert, Card, EmptyState } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import type { ConnectionChoice } from "@/lib/connections/types";
import type { EmailOtpStatus } from "@/lib/email-otp/types";
import { regionLabels } from "@/lib/service/regions";

import { DeleteEmailOtp } from "./delete-email-otp";
import { otpFieldRows } from "./loading-shapes";

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
      <EmptyState
        title="No email OTP configuration"
        action={
          <Link className="font-medium text-indigo-700 underline dark:text-indigo-300" href="/email-otp">
            Check again
          </Link>
        }
      >
        <p>
          {connection.name} has no email OTP configuration. Users of this tenant cannot enroll email one-time passcodes.
        </p>
        <div className="mt-3 space-y-2 text-left" data-testid="email-otp-set-up">
          <h3 className="font-medium text-slate-800 dark:text-slate-200">To set it up again</h3>
          <ol className="list-decimal space-y-1 pl-5">
            <li>
              In the service&rsquo;s own portal for this tenant, in its {regionLabels[connection.region]} region, add
              email OTP under its authenticators, with your email provider and its credentials. A script can create it
              instead with the service&rsquo;s management API, using this connection&rsquo;s management key.
            </li>
            <li>
              Come back here and check again: the console shows the new configuration as soon as the service has it. The
              console itself does not create one, so provider credentials never pass through it.
            </li>
          </ol>
        </div>
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
      <dl className={otpFieldRows} data-testid="email-otp-fields">
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
