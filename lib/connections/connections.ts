import "server-only";

import { and, eq } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { ActionResult } from "@/lib/call-action";
import { getDb } from "@/lib/db";
import { connections, connectionSecrets } from "@/lib/db/schema";
import { isUniqueViolation } from "@/lib/error-message";
import { processSingleton } from "@/lib/process-singleton";
import { regionLabels, regionShortNames, type Region } from "@/lib/service/regions";

import { findConnectionIdByName, getConnection, getServiceConnection, sealKey } from "./repository";
import { findConnectionWithSameKey } from "./same-key";
import {
  createConnectionSchema,
  deleteConnectionSchema,
  updateConnectionSchema,
  type CreateConnectionInput,
  type DeleteConnectionInput,
  type UpdateConnectionInput,
} from "./schemas";
import type { ConnectionMutationResult, SecretKindName } from "./types";
import { checkManagementKey } from "./verify";
import { newWebhookToken } from "./webhook-token";

/**
 * The connections feature's public module (ARCHITECTURE.md, "Dependencies"): creating, changing and deleting a
 * connection, and the reads other features need (the decrypted management key, the list, its other keys, its
 * webhook URL token).
 */
export { getConnection, getServiceConnection, listConnections } from "./repository";
export { readConnectionSecret, readServerKeys } from "./keys";
export { hashWebhookToken, newWebhookToken } from "./webhook-token";

type ChangeListener = (connectionId: string) => void;
/**
 * The process's: Next bundles the pages' actions that change a connection and the webhook route that caches
 * it apart, each with its own copy of this module, so a module-level set would not reach from one to the other.
 */
const changeListeners = processSingleton("connections.change-listeners", () => new Set<ChangeListener>());

/**
 * Calls `listener` with a connection's id once a change to its keys or its existence has committed, so
 * a feature that caches what it read of a connection (lib/webhooks/receivers.ts) forgets it at once
 * without this module knowing that feature.
 */
export function onConnectionChanged(listener: ChangeListener): void {
  changeListeners.add(listener);
}

function connectionChanged(connectionId: string): void {
  for (const listener of changeListeners) listener(connectionId);
}

type Failure = Extract<ConnectionMutationResult, { ok: false }>;

const nameTaken: Failure = { ok: false, field: "name", error: "A connection with this name already exists." };
const unreadableKey: Failure = {
  ok: false,
  field: "managementKey",
  error: "The stored management key cannot be read (it is not bound to this connection). Enter the key again.",
};

/**
 * The stored management key; null when it cannot be decrypted (copied from another row, say), so that
 * entering the key again replaces it; undefined when the connection is gone.
 */
async function readStoredManagementKey(id: string): Promise<string | null | undefined> {
  try {
    return (await getServiceConnection(id))?.managementKey;
  } catch (error) {
    if (error instanceof Error && error.name === "SecretDecryptionError") return null;
    throw error;
  }
}

/** Turns a key check into "go ahead (verified or not)" or the message the form shows. */
async function verifyForSave(
  region: Region,
  key: string,
  saveUnverified: boolean,
): Promise<{ verifiedAt: Date | null; httpStatus: number | null } | Failure> {
  const check = await checkManagementKey(region, key);
  switch (check.status) {
    case "verified":
      return { verifiedAt: new Date(), httpStatus: check.httpStatus };
    case "wrong_region":
      return {
        ok: false,
        field: "region",
        suggestedRegion: check.region,
        error: `This key belongs to the ${regionShortNames[check.region]} region, not ${regionShortNames[region]}. Choose ${regionLabels[check.region]} and save again.`,
      };
    case "invalid":
      return {
        ok: false,
        field: "managementKey",
        error:
          "No region accepts this management key. Check that you copied the whole key from the tenant's API keys settings.",
      };
    case "unreachable":
      if (saveUnverified) return { verifiedAt: null, httpStatus: check.httpStatus };
      return {
        ok: false,
        canSaveUnverified: true,
        error: `The ${regionLabels[region]} region could not be reached to check the key${check.httpStatus ? ` (HTTP ${check.httpStatus})` : ""}. You can save anyway; the connection will be marked unverified.`,
      };
  }
}

/**
 * A second connection to the same tenant (its management key in the same region) is almost always a
 * mistake: the tenant's webhooks reach only one of the two, and the watch lists and logs split. It is
 * said, naming the existing connection, and saved only when the admin confirms (`allowSameKey`).
 */
async function sameKeyFailure(
  region: Region,
  key: string,
  allowSameKey: boolean | undefined,
  exceptId?: string,
): Promise<Failure | undefined> {
  if (allowSameKey) return undefined;
  const other = await findConnectionWithSameKey(region, key, exceptId);
  if (!other) return undefined;
  return {
    ok: false,
    field: "managementKey",
    sameKeyAs: other,
    error: `${other.name} already connects to this tenant with this management key in ${regionLabels[region]}. A second connection to the same tenant splits its watch list and logs, and the tenant's webhooks reach only the connection whose URL is in its settings.`,
  };
}

function optionalKeys(input: { serverKey: string; serverSecondaryKey: string }): Array<[SecretKindName, string]> {
  const keys: Array<[SecretKindName, string]> = [];
  if (input.serverKey) keys.push(["server", input.serverKey]);
  if (input.serverSecondaryKey) keys.push(["server_secondary", input.serverSecondaryKey]);
  return keys;
}

export async function createConnection(
  actor: AuditActor,
  raw: CreateConnectionInput,
): Promise<ConnectionMutationResult> {
  const parsed = createConnectionSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Check the form." };
  const input = parsed.data;
  if (await findConnectionIdByName(input.name)) return nameTaken;
  const sameKey = await sameKeyFailure(input.region, input.managementKey, input.allowSameKey);
  if (sameKey) return sameKey;
  const verification = await verifyForSave(input.region, input.managementKey, input.saveUnverified);
  if ("ok" in verification) return verification;

  const db = await getDb();
  // The id is chosen here, not by the database, so the webhook token is sealed for this row (lib/secrets.ts).
  const newId = crypto.randomUUID();
  const token = newWebhookToken(newId);
  let id: string;
  try {
    id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(connections)
        .values({
          id: newId,
          name: input.name,
          region: input.region,
          verifiedAt: verification.verifiedAt,
          webhookTokenHash: token.hash,
          webhookTokenCiphertext: token.ciphertext,
          createdBy: actor.id,
          updatedBy: actor.id,
        })
        .returning({ id: connections.id });
      const connectionId = row!.id;
      const keys: Array<[SecretKindName, string]> = [["management", input.managementKey], ...optionalKeys(input)];
      await tx.insert(connectionSecrets).values(keys.map(([kind, key]) => sealKey(connectionId, kind, key, actor.id)));
      await recordAudit(
        {
          actor,
          action: "connection.created",
          outcome: "success",
          connection: { id: connectionId, name: input.name },
          httpStatus: verification.httpStatus ?? undefined,
          details: {
            region: input.region,
            verified: verification.verifiedAt !== null,
            keys: keys.map(([kind]) => kind),
          },
        },
        tx,
      );
      return connectionId;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return nameTaken;
    throw error;
  }
  return { ok: true, id, verified: verification.verifiedAt !== null };
}

export async function updateConnection(
  actor: AuditActor,
  raw: UpdateConnectionInput,
): Promise<ConnectionMutationResult> {
  const parsed = updateConnectionSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Check the form." };
  const input = parsed.data;
  const current = await getConnection(input.id);
  const storedKey = current ? await readStoredManagementKey(input.id) : undefined;
  if (!current || storedKey === undefined) return { ok: false, error: "This connection no longer exists." };
  const otherId = await findConnectionIdByName(input.name);
  if (otherId && otherId !== input.id) return nameTaken;

  // Verify only when what the check depends on changed: the key or the region.
  const keyChanged = input.managementKey !== "" && input.managementKey !== storedKey;
  const regionChanged = input.region !== current.region;
  if (storedKey === null && !keyChanged && regionChanged) return unreadableKey;
  if (keyChanged || regionChanged) {
    const sameKey = await sameKeyFailure(
      input.region,
      keyChanged ? input.managementKey : storedKey!,
      input.allowSameKey,
      input.id,
    );
    if (sameKey) return sameKey;
  }
  let verifiedAt: Date | null | undefined;
  let httpStatus: number | null = null;
  if (keyChanged || regionChanged) {
    const verification = await verifyForSave(
      input.region,
      keyChanged ? input.managementKey : storedKey!,
      input.saveUnverified,
    );
    if ("ok" in verification) return verification;
    ({ verifiedAt, httpStatus } = verification);
  }

  const replaced: Array<[SecretKindName, string]> = [
    ...(keyChanged ? [["management", input.managementKey] as [SecretKindName, string]] : []),
    ...optionalKeys(input),
  ];
  const connection = { id: input.id, name: input.name };
  const changes: Record<string, unknown> = {};
  if (input.name !== current.name) changes.name = { from: current.name, to: input.name };
  if (regionChanged) changes.region = { from: current.region, to: input.region };
  if (input.removeServerSecondaryKey && current.keys.server_secondary && !input.serverSecondaryKey)
    changes.removedKey = "server_secondary";
  const db = await getDb();
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(connections)
        .set({
          name: input.name,
          region: input.region,
          updatedBy: actor.id,
          updatedAt: new Date(),
          ...(verifiedAt !== undefined ? { verifiedAt } : {}),
        })
        .where(eq(connections.id, input.id));
      for (const [kind, key] of replaced) {
        const row = sealKey(input.id, kind, key, actor.id);
        await tx
          .insert(connectionSecrets)
          .values(row)
          .onConflictDoUpdate({
            target: [connectionSecrets.connectionId, connectionSecrets.kind],
            set: { ciphertext: row.ciphertext, last4: row.last4, setAt: row.setAt, setBy: row.setBy },
          });
      }
      if (input.removeServerSecondaryKey && !input.serverSecondaryKey) {
        await tx
          .delete(connectionSecrets)
          .where(and(eq(connectionSecrets.connectionId, input.id), eq(connectionSecrets.kind, "server_secondary")));
      }
      if (Object.keys(changes).length > 0 || replaced.length === 0) {
        await recordAudit(
          { actor, action: "connection.updated", outcome: "success", connection, details: changes },
          tx,
        );
      }
      for (const [kind] of replaced) {
        await recordAudit(
          {
            actor,
            action: "connection.key_replaced",
            outcome: "success",
            connection,
            target: kind,
            httpStatus: kind === "management" ? (httpStatus ?? undefined) : undefined,
            details: kind === "management" ? { verified: verifiedAt !== null } : undefined,
          },
          tx,
        );
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) return nameTaken;
    throw error;
  }
  connectionChanged(input.id);
  return {
    ok: true,
    id: input.id,
    verified: verifiedAt === undefined ? current.verifiedAt !== null : verifiedAt !== null,
  };
}

export async function deleteConnection(actor: AuditActor, raw: DeleteConnectionInput): Promise<ActionResult> {
  const parsed = deleteConnectionSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the form." };
  const current = await getConnection(parsed.data.id);
  if (!current) return { ok: false, error: "This connection no longer exists." };
  if (parsed.data.confirmName !== current.name) return { ok: false, error: `Type ${current.name} to confirm.` };
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(connections).where(eq(connections.id, current.id));
    await recordAudit(
      {
        actor,
        action: "connection.deleted",
        outcome: "success",
        connection: { id: current.id, name: current.name },
        details: { region: current.region },
      },
      tx,
    );
  });
  connectionChanged(current.id);
  return { ok: true };
}
