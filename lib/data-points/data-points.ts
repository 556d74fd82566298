import "server-only";

import { and, asc, eq } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import { getServiceConnection } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { consoleUsers, dataPointWatches } from "@/lib/db/schema";
import { getCustomDataPoint } from "@/lib/service";
import { describeServiceFailure } from "@/lib/service/messages";
import { customDataPointSchema } from "@/lib/service/schemas";

import { watchDataPointSchema, type WatchDataPointInput } from "./schemas";
import type { DataPointLookup, RefreshWatchesResult, WatchedDataPoint, WatchResult } from "./types";

/** One lookup, turned into what the page shows (404 names the connection). Takes the id: the key stays here. */
export async function lookUpDataPoint(connectionId: string, id: string): Promise<DataPointLookup> {
  const connection = await getServiceConnection(connectionId);
  if (!connection)
    return { kind: "failure", failure: "not_found", httpStatus: null, message: "This connection no longer exists." };
  const result = await getCustomDataPoint(connection, id);
  if (result.kind === "ok") return { kind: "ok", dataPoint: result.data, httpStatus: result.status };
  const message =
    result.kind === "not_found"
      ? `There is no data point with the id “${id}” in ${connection.name}.`
      : describeServiceFailure(result, connection);
  return { kind: "failure", failure: result.kind, httpStatus: result.status, message };
}

export async function listWatches(connectionId: string): Promise<WatchedDataPoint[]> {
  const db = await getDb();
  const rows = await db
    .select({
      dataPointId: dataPointWatches.dataPointId,
      addedAt: dataPointWatches.addedAt,
      addedBy: consoleUsers.email,
      lastFetchedAt: dataPointWatches.lastFetchedAt,
      lastStatus: dataPointWatches.lastStatus,
      snapshot: dataPointWatches.snapshot,
    })
    .from(dataPointWatches)
    .leftJoin(consoleUsers, eq(consoleUsers.id, dataPointWatches.addedBy))
    .where(eq(dataPointWatches.connectionId, connectionId))
    .orderBy(asc(dataPointWatches.addedAt), asc(dataPointWatches.dataPointId));
  return rows.map((r) => {
    const snapshot = customDataPointSchema.safeParse(r.snapshot);
    return {
      dataPointId: r.dataPointId,
      addedAt: r.addedAt.toISOString(),
      addedBy: r.addedBy,
      lastFetchedAt: r.lastFetchedAt?.toISOString() ?? null,
      lastStatus: (r.lastStatus as WatchedDataPoint["lastStatus"]) ?? null,
      snapshot: snapshot.success ? snapshot.data : null,
    };
  });
}

/** Adds a data point to the connection's watch list; only one the service confirms exists. */
export async function watchDataPoint(
  actor: AuditActor & { id: string },
  raw: WatchDataPointInput,
): Promise<WatchResult> {
  const parsed = watchDataPointSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Check the id." };
  const { connectionId, dataPointId } = parsed.data;
  const connection = await getServiceConnection(connectionId);
  if (!connection) return { ok: false, error: "This connection no longer exists." };
  const result = await getCustomDataPoint(connection, dataPointId);
  const audit = {
    actor,
    action: "data_point.watched" as const,
    connection: { id: connection.id, name: connection.name },
    target: dataPointId,
    httpStatus: result.status ?? undefined,
    requestId: result.requestId,
  };
  if (result.kind !== "ok") {
    const error =
      result.kind === "not_found"
        ? `There is no data point with the id “${dataPointId}” in ${connection.name}.`
        : describeServiceFailure(result, connection);
    await recordAudit({ ...audit, outcome: "failure", details: { result: result.kind } });
    return { ok: false, error };
  }
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .insert(dataPointWatches)
      .values({
        connectionId,
        dataPointId,
        addedBy: actor.id,
        lastFetchedAt: new Date(),
        lastStatus: "ok",
        snapshot: result.data,
      })
      .onConflictDoUpdate({
        target: [dataPointWatches.connectionId, dataPointWatches.dataPointId],
        set: { lastFetchedAt: new Date(), lastStatus: "ok", snapshot: result.data },
      });
    await recordAudit({ ...audit, outcome: "success" }, tx);
  });
  return { ok: true };
}

export async function unwatchDataPoint(actor: AuditActor, raw: WatchDataPointInput): Promise<WatchResult> {
  const parsed = watchDataPointSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the id." };
  const { connectionId, dataPointId } = parsed.data;
  const connection = await getServiceConnection(connectionId);
  if (!connection) return { ok: false, error: "This connection no longer exists." };
  const db = await getDb();
  const removed = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(dataPointWatches)
      .where(and(eq(dataPointWatches.connectionId, connectionId), eq(dataPointWatches.dataPointId, dataPointId)))
      .returning({ id: dataPointWatches.dataPointId });
    if (rows.length > 0) {
      await recordAudit(
        {
          actor,
          action: "data_point.unwatched",
          outcome: "success",
          connection: { id: connection.id, name: connection.name },
          target: dataPointId,
        },
        tx,
      );
    }
    return rows.length > 0;
  });
  if (!removed) return { ok: false, error: `${dataPointId} is not on the watch list.` };
  return { ok: true };
}

/**
 * Fetches every watched data point again, four at a time, and stores each outcome. A failed fetch
 * keeps the last good snapshot so the list still says what the point looked like.
 */
export async function refreshWatches(connectionId: string): Promise<RefreshWatchesResult> {
  const connection = await getServiceConnection(connectionId);
  if (!connection) return { ok: false, error: "This connection no longer exists." };
  const db = await getDb();
  const ids = (
    await db
      .select({ id: dataPointWatches.dataPointId })
      .from(dataPointWatches)
      .where(eq(dataPointWatches.connectionId, connectionId))
  ).map((r) => r.id);
  let failed = 0;
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const result = await getCustomDataPoint(connection, id);
      if (result.kind !== "ok") failed++;
      await db
        .update(dataPointWatches)
        .set({
          lastFetchedAt: new Date(),
          lastStatus: result.kind,
          ...(result.kind === "ok" ? { snapshot: result.data } : {}),
        })
        .where(and(eq(dataPointWatches.connectionId, connectionId), eq(dataPointWatches.dataPointId, id)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, ids.length) }, worker));
  return { ok: true, refreshed: ids.length - failed, failed };
}
