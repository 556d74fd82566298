"use client";

import { PageError } from "@/components/shell/page-error";

export default function EmailOtpError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Email OTP configuration" {...props} />;
}
