import "server-only";

import { eq } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { ActionResult } from "@/lib/call-action";
import { getDb } from "@/lib/db";
import { forwardDestinations, type ForwardDestination } from "@/lib/db/forwarding-schema";
import { decryptSecret, newSigningSecret } from "@/lib/secrets";

import { findDestination, GONE, sealDestinationSecret } from "./find";
import { destinationIdSchema, rotateDestinationSecretSchema } from "./schemas";
import { readOr, unreadableDestinationSecret } from "./signers";
import type { DestinationSecretResult } from "./types";

/** A Standard Webhooks destination's signing secret, for the admin's own checks: audited as destination.secret_revealed. */

/** The destination's current secret, decrypted; throws SecretDecryptionError when it cannot be read. */
const currentSecret = (row: ForwardDestination) =>
  decryptSecret(row.secretCiphertext!, {
    connectionId: row.connectionId,
    destinationId: row.id,
    kind: "destination_secret",
  });

const NO_SECRET = { ok: false, error: "Only a Standard Webhooks destination has a signing secret." } as const;

export async function revealDestinationSecret(
  actor: AuditActor,
  raw: unknown,
): Promise<ActionResult<{ secret: string }>> {
  const parsed = destinationIdSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  const found = await findDestination(parsed.data.connectionId, parsed.data.destinationId);
  if (!found) return GONE;
  const { row, connection } = found;
  if (row.signing !== "standard_webhooks" || !row.secretCiphertext) return NO_SECRET;
  const secret = readOr(
    () => currentSecret(row),
    (reason) => ({ problem: unreadableDestinationSecret(reason) }),
  );
  if (typeof secret !== "string") return { ok: false, error: secret.problem };
  await recordAudit({ actor, action: "destination.secret_revealed", outcome: "success", connection, target: row.name });
  return { ok: true, secret };
}

/**
 * A new Standard Webhooks secret, shown this once; the one it replaces still signs beside it for the hours the admin
 * picked (0: it stops at once), so a receiver can take the new one without missing an event.
 */
export async function rotateDestinationSecret(actor: AuditActor, raw: unknown): Promise<DestinationSecretResult> {
  const parsed = rotateDestinationSecretSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Check the request." };
  const found = await findDestination(parsed.data.connectionId, parsed.data.destinationId);
  if (!found) return GONE;
  const { row, connection } = found;
  if (row.signing !== "standard_webhooks" || !row.secretCiphertext)
    return { ok: false, error: "Only a Standard Webhooks destination has a secret to rotate." };
  const secret = newSigningSecret();
  // A secret that cannot be read any more (lib/destinations/signers.ts says so on the page) is replaced
  // without signing beside the new one: rotating is how an admin mends it.
  const current = readOr(
    () => currentSecret(row),
    () => null,
  );
  const hours = parsed.data.previousSecretHours;
  const keepsPrevious = current !== null && hours > 0;
  const previousSecretExpiresAt = keepsPrevious ? new Date(Date.now() + hours * 3_600_000) : null;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(forwardDestinations)
      .set({
        secretCiphertext: sealDestinationSecret(secret, connection.id, row.id),
        previousSecretCiphertext: keepsPrevious ? sealDestinationSecret(current, connection.id, row.id, true) : null,
        previousSecretExpiresAt,
        signingProblem: null,
        updatedAt: new Date(),
      })
      .where(eq(forwardDestinations.id, row.id));
    await recordAudit(
      {
        actor,
        action: "destination.secret_rotated",
        outcome: "success",
        connection,
        target: row.name,
        details: { previousSecretHours: keepsPrevious ? hours : 0, previousSecretExpiresAt },
      },
      tx,
    );
  });
  return { ok: true, id: row.id, name: row.name, secret };
}
