"use server";
import { revalidatePath } from "next/cache";
import { authorizeAction, isActionFailure } from "@/lib/auth/guards";
import { deleteEmailOtp } from "@/lib/email-otp/email-otp";
import type { DeleteEmailOtpInput } from "@/lib/email-otp/schemas";
import type { DeleteEmailOtpResult } from "@/lib/email-otp/types";

export async function deleteEmailOtpAction(input: DeleteEmailOtpInput): Promise<DeleteEmailOtpResult> {
  const user = await authorizeAction("admin");
  if (isActionFailure(user)) return user;
  const result = await deleteEmailOtp(user, input);
  revalidatePath("/email-otp");
  return result;
}
