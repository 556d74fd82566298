"use server";

import type { ActionResult } from "@/lib/call-action";
import { runAction } from "@/lib/server-action";
import type { RegenerateWebhookUrlInput, SendTestEventInput } from "@/lib/webhooks/schemas";
import { sendTestEvent } from "@/lib/webhooks/test-event";
import type { TestEventReport } from "@/lib/webhooks/types";
import { regenerateWebhookUrl } from "@/lib/webhooks/url";

// The connection page's webhook cards (components/webhooks/): both admins only; lib/webhooks validates and audits.

/** The URL is a credential. The card says when the old one could not be read: its page is revalidated. */
export async function regenerateWebhookUrlAction(
  input: RegenerateWebhookUrlInput,
): Promise<ActionResult<{ url: string }>> {
  return runAction(
    { name: "regenerateWebhookUrlAction", role: "admin", revalidate: [["/connections/[id]", "page"]] },
    (user) => regenerateWebhookUrl(user, input),
  );
}

/** "Send a test event" signs with the server key and posts to the public URL. */
export async function sendTestEventAction(
  input: SendTestEventInput,
): Promise<ActionResult<{ report: TestEventReport }>> {
  return runAction({ name: "sendTestEventAction", role: "admin" }, (user) => sendTestEvent(user, input));
}
