import type { Metadata } from "next";

import { NoConnection } from "@/components/connections/no-connection";
import { EmailOtpCard } from "@/components/email-otp/email-otp-card";
import { EmailOtpCardSkeleton } from "@/components/email-otp/loading-shapes";
import { PageHeader } from "@/components/ui/card";
import { StreamedSection } from "@/components/ui/streamed-section";
import { requireSelectedConnection } from "@/lib/connections/current";
import { getEmailOtpStatus } from "@/lib/email-otp/email-otp";
import { regionLabels } from "@/lib/service/regions";

export const metadata: Metadata = { title: "Email OTP" };

const title = "Email OTP configuration";

export default async function EmailOtpPage() {
  const { connection } = await requireSelectedConnection("admin");
  if (!connection) return <NoConnection title={title} isAdmin />;
  return (
    <>
      <PageHeader
        title={title}
        description={`The email one-time-passcode configuration of ${connection.name}, region ${regionLabels[connection.region]}.`}
      />
      <div className="max-w-2xl">
        <StreamedSection key={connection.id} title="The configuration" fallback={<EmailOtpCardSkeleton />}>
          <EmailOtpCard connection={connection} status={getEmailOtpStatus(connection.id)} />
        </StreamedSection>
      </div>
    </>
  );
}
