"use server";

import type { ActionResult } from "@/lib/call-action";
import { runAction } from "@/lib/server-action";
import { setPasswordWithLink } from "@/lib/team/password-link";
import type { SetPasswordInput } from "@/lib/team/schemas";

/** Public, like the page: the link's token is the credential; lib/team validates it, uses it once and audits. */
export async function setPasswordAction(input: SetPasswordInput): Promise<ActionResult> {
  return runAction({ name: "setPasswordAction", role: null }, () => setPasswordWithLink(input));
}
