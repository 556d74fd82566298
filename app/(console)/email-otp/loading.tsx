import { EmailOtpCardSkeleton } from "@/components/email-otp/email-otp-card";
import { PageHeader } from "@/components/ui/card";

export default function EmailOtpLoading() {
  return (
    <>
      <PageHeader title="Email OTP configuration" />
      <div className="max-w-2xl">
        <EmailOtpCardSkeleton />
      </div>
    </>
  );
}
