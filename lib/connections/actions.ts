"use server";

import { z } from "zod";

import type { ActionResult } from "@/lib/call-action";
import { createConnection, deleteConnection, updateConnection } from "@/lib/connections/connections";
import { ALL_CONNECTIONS_SCOPE, rememberSelectedConnection } from "@/lib/connections/current";
import { getConnection } from "@/lib/connections/repository";
import {
  selectConnectionSchema,
  type CreateConnectionInput,
  type DeleteConnectionInput,
  type UpdateConnectionInput,
} from "@/lib/connections/schemas";
import type { ConnectionMutationResult } from "@/lib/connections/types";
import { runAction } from "@/lib/server-action";

// Thin entry points: each checks the role itself; lib/connections validates with the forms' schemas.
// A connection's name shows in the shell's switcher on every page, so a change revalidates them all.
const everyPage = [["/", "layout"]] as const;

export async function createConnectionAction(input: CreateConnectionInput): Promise<ConnectionMutationResult> {
  return runAction({ name: "createConnectionAction", role: "admin", revalidate: everyPage }, (user) =>
    createConnection(user, input),
  );
}

export async function updateConnectionAction(input: UpdateConnectionInput): Promise<ConnectionMutationResult> {
  return runAction({ name: "updateConnectionAction", role: "admin", revalidate: everyPage }, (user) =>
    updateConnection(user, input),
  );
}

export async function deleteConnectionAction(input: DeleteConnectionInput): Promise<ActionResult> {
  return runAction({ name: "deleteConnectionAction", role: "admin", revalidate: everyPage }, (user) =>
    deleteConnection(user, input),
  );
}

/** A connection's id, or "All connections" (the pages that can show all). */
const switcherChoice = z.union([selectConnectionSchema, z.object({ id: z.literal(ALL_CONNECTIONS_SCOPE) })]);

/**
 * The shell's switcher: any signed-in user may choose which connection feature pages show, or all of them. A
 * refusal revalidates too: the connection is gone, and the switcher then lists the others.
 */
export async function selectConnectionAction(input: { id: string }): Promise<ActionResult> {
  const gone = "That connection no longer exists.";
  return runAction(
    {
      name: "selectConnectionAction",
      role: "support",
      parse: { schema: switcherChoice, input, invalid: gone },
      revalidate: everyPage,
      revalidateOnFailure: true,
    },
    async (_user, { id }): Promise<ActionResult> => {
      if (id !== ALL_CONNECTIONS_SCOPE && !(await getConnection(id))) return { ok: false, error: gone };
      await rememberSelectedConnection(id);
      return { ok: true };
    },
  );
}
