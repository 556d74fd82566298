import { z } from "zod";

/** Client-safe: the delete dialog's input, checked again on the server. */
export const deleteEmailOtpSchema = z.object({ connectionId: z.uuid(), confirmName: z.string().max(200) });
export type DeleteEmailOtpInput = z.infer<typeof deleteEmailOtpSchema>;
