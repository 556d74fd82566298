"use server";
import { authorizeAction, isActionFailure } from "@/lib/auth/guards";
import { regenerateWebhookUrl, type RegenerateWebhookUrlInput } from "@/lib/webhooks/url";

/** Thin entry point: admins only; lib/webhooks/url.ts validates and audits. */
export async function regenerateWebhookUrlAction(input: RegenerateWebhookUrlInput): Promise<{ ok: true; url: string } | { ok: false; error: string }> {
  const user = await authorizeAction("admin");
  if (isActionFailure(user)) return user;
  return regenerateWebhookUrl(user, input);
}
