import "server-only";

import { asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { getDb } from "@/lib/db";
import { connections, connectionSecrets, consoleUsers } from "@/lib/db/schema";
import { decryptSecret, encryptSecret, fingerprint } from "@/lib/secrets";
import type { Region } from "@/lib/service/regions";

import type { ConnectionChoice, ConnectionSummary, SecretKindName } from "./types";

const creator = alias(consoleUsers, "creator");
const updater = alias(consoleUsers, "updater");

async function selectSummaries(where?: ReturnType<typeof eq>): Promise<ConnectionSummary[]> {
  const db = await getDb();
  const base = db
    .select({
      id: connections.id,
      name: connections.name,
      region: connections.region,
      verifiedAt: connections.verifiedAt,
      createdAt: connections.createdAt,
      updatedAt: connections.updatedAt,
      createdBy: creator.email,
      updatedBy: updater.email,
    })
    .from(connections)
    .leftJoin(creator, eq(creator.id, connections.createdBy))
    .leftJoin(updater, eq(updater.id, connections.updatedBy));
  const rows = await (where ? base.where(where) : base).orderBy(asc(sql`lower(${connections.name})`));
  if (rows.length === 0) return [];
  const secrets = await db
    .select({
      connectionId: connectionSecrets.connectionId,
      kind: connectionSecrets.kind,
      last4: connectionSecrets.last4,
      setAt: connectionSecrets.setAt,
    })
    .from(connectionSecrets);
  return rows.map((row) => ({
    ...row,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    keys: Object.fromEntries(
      secrets
        .filter((s) => s.connectionId === row.id)
        .map((s) => [s.kind, { last4: s.last4, setAt: s.setAt.toISOString() }]),
    ),
  }));
}

export function listConnections(): Promise<ConnectionSummary[]> {
  return selectSummaries();
}

export async function getConnection(id: string): Promise<ConnectionSummary | undefined> {
  const [row] = await selectSummaries(eq(connections.id, id));
  return row;
}

/** Id, name and region of every connection, by name: what the switcher offers. */
export async function listConnectionChoices(): Promise<ConnectionChoice[]> {
  const db = await getDb();
  return db
    .select({ id: connections.id, name: connections.name, region: connections.region })
    .from(connections)
    .orderBy(asc(sql`lower(${connections.name})`));
}

export async function findConnectionIdByName(name: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ id: connections.id })
    .from(connections)
    .where(eq(sql`lower(${connections.name})`, name.trim().toLowerCase()))
    .limit(1);
  return row?.id;
}

/** The connection with its decrypted management key, for calling the service. Server-only; never hand it to a page. */
export async function getServiceConnection(
  id: string,
): Promise<{ id: string; name: string; region: Region; managementKey: string } | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({
      id: connections.id,
      name: connections.name,
      region: connections.region,
      ciphertext: connectionSecrets.ciphertext,
    })
    .from(connections)
    .innerJoin(
      connectionSecrets,
      sql`${connectionSecrets.connectionId} = ${connections.id} and ${connectionSecrets.kind} = 'management'`,
    )
    .where(eq(connections.id, id))
    .limit(1);
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    region: row.region,
    managementKey: decryptSecret(row.ciphertext, { connectionId: row.id, kind: "management" }),
  };
}

/**
 * Every connection in a region with its sealed management key (still encrypted), for the duplicate-key
 * check in connections.ts. Server-only.
 */
export async function listSealedManagementKeys(
  region: Region,
): Promise<Array<{ id: string; name: string; ciphertext: string }>> {
  const db = await getDb();
  return db
    .select({ id: connections.id, name: connections.name, ciphertext: connectionSecrets.ciphertext })
    .from(connections)
    .innerJoin(
      connectionSecrets,
      sql`${connectionSecrets.connectionId} = ${connections.id} and ${connectionSecrets.kind} = 'management'`,
    )
    .where(eq(connections.region, region))
    .orderBy(asc(sql`lower(${connections.name})`));
}

/** Encrypted row values for a key, bound to its connection and kind; only the last four characters stay in clear. */
export function sealKey(connectionId: string, kind: SecretKindName, key: string, actorId: string | null) {
  return {
    connectionId,
    kind,
    ciphertext: encryptSecret(key, { connectionId, kind }),
    last4: fingerprint(key),
    setAt: new Date(),
    setBy: actorId,
  };
}
