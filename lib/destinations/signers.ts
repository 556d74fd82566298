import "server-only";

import { eq } from "drizzle-orm";

import { readServerKeys } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { forwardDestinations, type ForwardDestination } from "@/lib/db/forwarding-schema";
import { decryptSecret, SecretDecryptionError, type SecretDecryptionReason } from "@/lib/secrets";

import { SERVICE_SIGNING_NEEDS_SERVER_KEY } from "./constants";
import type { Signer } from "./signing";

/**
 * Each destination's signer for one batch, or why it cannot sign, in words that say what to do: a secret that
 * cannot be read fails only its own destination's deliveries, and is kept on it (`signing_problem`) until a signer
 * can be made again. docs/forwarding.md, "A destination that cannot sign fails alone".
 */

export type SignerOrProblem = Signer | { problem: string };

const UNREADABLE: Record<SecretDecryptionReason, string> = {
  unknown_key: "it was sealed with an encryption key this console does not hold",
  unbound: "it was stored before secrets were bound to their row",
  mismatch: "it is bound to another row, or was altered",
  format: "its stored form is not one the console knows",
};

const OLD_KEY_REMEDY =
  "if the console's encryption key was changed, ask its operator to keep the old key as a previous one and re-seal the stored secrets (“Encrypted at rest” in the connections and keys guide)";

export const unreadableDestinationSecret = (reason: SecretDecryptionReason, previous = false) =>
  `This destination's ${previous ? "previous " : ""}signing secret cannot be read (${UNREADABLE[reason]}): rotate its secret on the destination's page and give the new one to the handler, or, ${OLD_KEY_REMEDY}.`;

export const unreadableServerKey = (reason: SecretDecryptionReason) =>
  `The connection's server key cannot be read (${UNREADABLE[reason]}), so nothing can be signed as the service: enter the server key again in the connection's Settings and keys, or, ${OLD_KEY_REMEDY}.`;

/** `read()`, or what `unreadable` makes of a SecretDecryptionError's reason; any other error is thrown on. */
export function readOr<T, U>(read: () => T, unreadable: (reason: SecretDecryptionReason) => U): T | U {
  try {
    return read();
  } catch (error) {
    if (error instanceof SecretDecryptionError) return unreadable(error.reason);
    throw error;
  }
}

function standardWebhooksSigner(destination: ForwardDestination): SignerOrProblem {
  const { id: destinationId, connectionId } = destination;
  const secrets: string[] = [];
  const sealed: Array<[string | null, boolean]> = [
    [destination.secretCiphertext, false],
    [
      destination.previousSecretExpiresAt && destination.previousSecretExpiresAt > new Date()
        ? destination.previousSecretCiphertext
        : null,
      true,
    ],
  ];
  for (const [ciphertext, previous] of sealed) {
    if (!ciphertext) continue;
    const kind = previous ? "destination_previous_secret" : "destination_secret";
    const secret = readOr(
      () => decryptSecret(ciphertext, { connectionId, destinationId, kind }),
      (reason) => ({ problem: unreadableDestinationSecret(reason, previous) }),
    );
    if (typeof secret !== "string") return secret;
    secrets.push(secret);
  }
  return secrets.length > 0
    ? { mode: "standard_webhooks", secrets }
    : { problem: "This destination has no signing secret: rotate it to make one." };
}

export async function signersFor(destinations: readonly ForwardDestination[]): Promise<Map<string, SignerOrProblem>> {
  // One read of a connection's keys per batch, its own failure included.
  const serverKeys = new Map<string, Promise<string[] | { problem: string }>>();
  const keysOf = (connectionId: string) => {
    if (!serverKeys.has(connectionId)) {
      serverKeys.set(
        connectionId,
        readServerKeys(connectionId).catch((error: unknown) => {
          if (error instanceof SecretDecryptionError) return { problem: unreadableServerKey(error.reason) };
          throw error;
        }),
      );
    }
    return serverKeys.get(connectionId)!;
  };
  const signers = new Map<string, SignerOrProblem>();
  for (const destination of destinations) {
    if (destination.signing === "standard_webhooks") {
      signers.set(destination.id, standardWebhooksSigner(destination));
      continue;
    }
    const keys = await keysOf(destination.connectionId);
    if (!Array.isArray(keys)) signers.set(destination.id, keys);
    else
      signers.set(
        destination.id,
        keys.length > 0 ? { mode: "service", serverKeys: keys } : { problem: SERVICE_SIGNING_NEEDS_SERVER_KEY },
      );
  }
  await recordSigningProblems(destinations, signers);
  return signers;
}

/** Keeps each destination's signing problem as found now: written only where it changed (rarely). */
async function recordSigningProblems(
  destinations: readonly ForwardDestination[],
  signers: Map<string, SignerOrProblem>,
): Promise<void> {
  const changed = destinations.flatMap((destination) => {
    const signer = signers.get(destination.id)!;
    const problem = "problem" in signer ? signer.problem : null;
    return problem === destination.signingProblem ? [] : [{ id: destination.id, problem }];
  });
  if (changed.length === 0) return;
  const db = await getDb();
  for (const { id, problem } of changed)
    await db.update(forwardDestinations).set({ signingProblem: problem }).where(eq(forwardDestinations.id, id));
}
