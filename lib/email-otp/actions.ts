"use server";

import { deleteEmailOtp } from "@/lib/email-otp/email-otp";
import type { DeleteEmailOtpInput } from "@/lib/email-otp/schemas";
import type { DeleteEmailOtpResult } from "@/lib/email-otp/types";
import { runAction } from "@/lib/server-action";

/**
 * Revalidated after a failure too: "not confirmed as deleted" may have deleted it, and the status below then says so.
 */
export async function deleteEmailOtpAction(input: DeleteEmailOtpInput): Promise<DeleteEmailOtpResult> {
  return runAction(
    { name: "deleteEmailOtpAction", role: "admin", revalidate: ["/email-otp"], revalidateOnFailure: true },
    (user) => deleteEmailOtp(user, input),
  );
}
