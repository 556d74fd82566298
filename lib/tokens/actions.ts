"use server";

import type { ActionResult } from "@/lib/call-action";
import { runAction } from "@/lib/server-action";
import type { CreateApiTokenInput, RevokeApiTokenInput } from "@/lib/tokens/schemas";
import { createApiToken, revokeApiToken } from "@/lib/tokens/tokens";
import type { CreateApiTokenResult } from "@/lib/tokens/types";

// Admins only; lib/tokens parses both inputs, caps the role at the admin's own and audits. The token acts for its
// creator.
const pages = ["/tokens"] as const;

export async function createApiTokenAction(input: CreateApiTokenInput): Promise<CreateApiTokenResult> {
  return runAction({ name: "createApiTokenAction", role: "admin", revalidate: pages }, (user) =>
    createApiToken({ actor: { id: user.id, email: user.email }, user: { id: user.id, role: user.role } }, input),
  );
}

export async function revokeApiTokenAction(input: RevokeApiTokenInput): Promise<ActionResult<{ name: string }>> {
  return runAction({ name: "revokeApiTokenAction", role: "admin", revalidate: pages }, (user) =>
    revokeApiToken({ id: user.id, email: user.email }, input),
  );
}
