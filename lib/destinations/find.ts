import "server-only";

import { and, eq } from "drizzle-orm";

import { getConnection } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { encryptSecret } from "@/lib/secrets";

/** The destination of this connection, with the connection (for its audit record), or undefined. */
export async function findDestination(connectionId: string, destinationId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(forwardDestinations)
    .where(and(eq(forwardDestinations.id, destinationId), eq(forwardDestinations.connectionId, connectionId)))
    .limit(1);
  const connection = row ? await getConnection(connectionId) : undefined;
  return row && connection ? { row, connection } : undefined;
}

export const GONE = { ok: false, error: "This destination no longer exists." } as const;

/** A destination's secret sealed to its row (lib/secrets.ts), the current one or the previous one. */
export const sealDestinationSecret = (secret: string, connectionId: string, destinationId: string, previous = false) =>
  encryptSecret(secret, {
    connectionId,
    destinationId,
    kind: previous ? "destination_previous_secret" : "destination_secret",
  });
