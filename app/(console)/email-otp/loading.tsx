import { EmailOtpCardSkeleton } from "@/components/email-otp/loading-shapes";
import { PageHeader, TextSkeleton } from "@/components/ui/card";

export default function EmailOtpLoading() {
  return (
    <>
      <PageHeader title="Email OTP configuration" description={<TextSkeleton className="w-96 max-w-full" />} />
      <div className="max-w-2xl">
        <EmailOtpCardSkeleton />
      </div>
    </>
  );
}
