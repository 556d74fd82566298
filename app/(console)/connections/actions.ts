"use server";
import { revalidatePath } from "next/cache";
import { rememberSelectedConnection } from "@/lib/connections/current";
import { createConnection, deleteConnection, updateConnection } from "@/lib/connections/connections";
import { getConnection } from "@/lib/connections/repository";
import { selectConnectionSchema, type CreateConnectionInput, type DeleteConnectionInput, type UpdateConnectionInput } from "@/lib/connections/schemas";
import type { ConnectionMutationResult } from "@/lib/connections/types";
import { runActionAs } from "@/lib/server-action";
import type { RegenerateWebhookUrlInput } from "@/lib/webhooks/schemas";
import { sendTestEvent, type SendTestEventInput } from "@/lib/webhooks/test-event";
import type { TestEventReport } from "@/lib/webhooks/types";
import { regenerateWebhookUrl } from "@/lib/webhooks/url";
import type { ActionResult } from "@/lib/call-action";

// Thin entry points: each checks the role itself; lib/connections validates with the forms' schemas.

export async function createConnectionAction(input: CreateConnectionInput): Promise<ConnectionMutationResult> {
  return runActionAs("admin", "createConnectionAction", async (user) => {
    const result = await createConnection(user, input);
    if (result.ok) revalidatePath("/", "layout");
    return result;
  });
}

export async function updateConnectionAction(input: UpdateConnectionInput): Promise<ConnectionMutationResult> {
  return runActionAs("admin", "updateConnectionAction", async (user) => {
    const result = await updateConnection(user, input);
    if (result.ok) revalidatePath("/", "layout");
    return result;
  });
}

export async function deleteConnectionAction(input: DeleteConnectionInput): Promise<ActionResult> {
  return runActionAs("admin", "deleteConnectionAction", async (user) => {
    const result = await deleteConnection(user, input);
    if (result.ok) revalidatePath("/", "layout");
    return result;
  });
}

/** The shell's switcher: any signed-in user may choose which connection feature pages show. */
export async function selectConnectionAction(input: { id: string }): Promise<ActionResult> {
  return runActionAs("support", "selectConnectionAction", async (): Promise<ActionResult> => {
    const parsed = selectConnectionSchema.safeParse(input);
    if (!parsed.success || !(await getConnection(parsed.data.id))) return { ok: false, error: "That connection no longer exists." };
    await rememberSelectedConnection(parsed.data.id);
    revalidatePath("/", "layout");
    return { ok: true };
  });
}

/** The connection page's webhook card: the URL is a credential, so admins only; lib/webhooks/url.ts validates and audits. */
export async function regenerateWebhookUrlAction(input: RegenerateWebhookUrlInput): Promise<ActionResult<{ url: string }>> {
  return runActionAs("admin", "regenerateWebhookUrlAction", (user) => regenerateWebhookUrl(user, input));
}

/** "Send a test event": signs with the server key and posts to the public URL, so admins only; lib/webhooks/test-event.ts validates and audits. */
export async function sendTestEventAction(input: SendTestEventInput): Promise<ActionResult<{ report: TestEventReport }>> {
  return runActionAs("admin", "sendTestEventAction", (user) => sendTestEvent(user, input));
}
