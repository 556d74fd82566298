"use server";
import { revalidatePath } from "next/cache";
import { deleteEmailOtp } from "@/lib/email-otp/email-otp";
import type { DeleteEmailOtpInput } from "@/lib/email-otp/schemas";
import type { DeleteEmailOtpResult } from "@/lib/email-otp/types";
import { runActionAs } from "@/lib/server-action";

export async function deleteEmailOtpAction(input: DeleteEmailOtpInput): Promise<DeleteEmailOtpResult> {
  return runActionAs("admin", "deleteEmailOtpAction", async (user) => {
    const result = await deleteEmailOtp(user, input);
    revalidatePath("/email-otp");
    return result;
  });
}
