import { z } from "zod";

/** Client-safe: the typed confirmation of a webhook URL regeneration, checked again on the server. */
export const regenerateWebhookUrlSchema = z.object({
  connectionId: z.uuid(),
  confirmName: z.string().min(1, "Type the connection's name to confirm."),
});
export type RegenerateWebhookUrlInput = z.infer<typeof regenerateWebhookUrlSchema>;
