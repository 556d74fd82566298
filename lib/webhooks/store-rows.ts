import { getTableColumns, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

import { webhookEvents } from "@/lib/db/schema";

import { isTestEventId } from "./constants";
import type { ReceivedEvent } from "./store";

/*
 * How store.ts hands a batch to the database: its rows as one JSON array, read by json_to_recordset. Each row also
 * carries its receipt's trace parent (`trace_parent`, null while tracing is off), which its queued deliveries keep.
 */

/** The columns a batch writes: all but the id and the delivery count (the database's defaults). */
const WRITTEN_COLUMNS = Object.entries(getTableColumns(webhookEvents)).filter(
  ([key]) => key !== "id" && key !== "deliveryCount",
) as Array<[keyof typeof webhookEvents.$inferInsert, PgColumn]>;
/** The written columns as json_to_recordset reads them (without the trace parent, which no event row keeps). */
export const RECORD_TYPE = sql.raw(
  WRITTEN_COLUMNS.map(([, column]) => `${column.name} ${column.getSQLType()}`).join(", "),
);
export const COLUMN_NAMES = sql.raw(WRITTEN_COLUMNS.map(([, column]) => column.name).join(", "));

/** The batch's rows as json_to_recordset reads them. */
export const batchRows = (events: ReceivedEvent[]) =>
  JSON.stringify(
    events.map((event) => {
      const row = eventRow(event);
      const columns = Object.fromEntries(WRITTEN_COLUMNS.map(([key, column]) => [column.name, row[key] ?? null]));
      return { ...columns, trace_parent: event.traceParent ?? null };
    }),
  );

function eventRow(event: ReceivedEvent): typeof webhookEvents.$inferInsert {
  const { envelope, data, receivedAt } = event;
  return {
    connectionId: event.connectionId,
    eventId: envelope.id,
    type: envelope.type,
    tenantId: envelope.tenantId,
    envelopeTime: new Date(envelope.time),
    firstReceivedAt: receivedAt,
    lastReceivedAt: receivedAt,
    deliveryCount: 1,
    signatureStatus: event.signatureStatus,
    rawBody: event.rawBody,
    isTest: isTestEventId(envelope.id),
    userId: data.userId,
    verificationMethod: data.verificationMethod,
    authenticatorCreatedAt: data.createdAt ? new Date(data.createdAt) : undefined,
    expiresAt: data.expiresAt ? new Date(data.expiresAt) : undefined,
    userAuthenticatorId: data.userAuthenticatorId,
    deviceName: data.deviceName,
    devicePlatform: data.devicePlatform,
    email: data.email,
    phoneNumber: data.phoneNumber,
    credentialId: data.credentialId,
    aaguid: data.aaguid,
    credentialName: data.credentialName,
  };
}
