import "server-only";

import { eq } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import { getDb } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { checkUrlToSave, outboundPolicyFromEnv, type OutboundPolicy } from "@/lib/outbound/address-policy";

import { findDestination, GONE } from "./find";
import { updateDestinationSchema } from "./schemas";
import type { DestinationField, UpdateDestinationResult } from "./types";

const EDITABLE: readonly DestinationField[] = ["url", "eventTypes", "verificationMethods", "maxPerSecond"];

/** An empty list is every event type (or method), as when adding: stored as null. */
const listOrNull = (values: string[] | null | undefined) =>
  values === undefined ? undefined : values && values.length > 0 ? values : null;

/**
 * Edits a destination's URL, event types, verification methods or rate cap (only those given), under the same rules
 * as adding one; audited as destination.updated with what changed (a URL by its origin).
 */
export async function updateDestination(
  actor: AuditActor,
  raw: unknown,
  policy: OutboundPolicy = outboundPolicyFromEnv(),
): Promise<UpdateDestinationResult> {
  const parsed = updateDestinationSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0] as DestinationField;
    return {
      ok: false,
      error: issue?.message ?? "Check the form.",
      field: EDITABLE.includes(field) ? field : undefined,
    };
  }
  const input = parsed.data;
  const found = await findDestination(input.connectionId, input.destinationId);
  if (!found) return GONE;
  const { row, connection } = found;
  let url: string | undefined;
  if (input.url !== undefined) {
    const checked = await checkUrlToSave(input.url, policy);
    if (!checked.ok) return { ok: false, error: checked.error, field: "url" };
    url = checked.url.href;
  }
  const next = {
    url,
    eventTypes: listOrNull(input.eventTypes),
    verificationMethods: listOrNull(input.verificationMethods),
    maxPerSecond: input.maxPerSecond,
  };
  const before = {
    url: row.url,
    eventTypes: row.eventTypes,
    verificationMethods: row.verificationMethods,
    maxPerSecond: row.maxPerSecond,
  };
  const changed = (Object.keys(next) as Array<keyof typeof next>).filter(
    (key) => next[key] !== undefined && JSON.stringify(next[key]) !== JSON.stringify(before[key]),
  );
  if (changed.length === 0) return { ok: true };
  const shown = (key: keyof typeof next, value: unknown) =>
    key === "url" && typeof value === "string" ? new URL(value).origin : value;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(forwardDestinations)
      .set({ ...Object.fromEntries(changed.map((key) => [key, next[key]])), updatedAt: new Date() })
      .where(eq(forwardDestinations.id, row.id));
    await recordAudit(
      {
        actor,
        action: "destination.updated",
        outcome: "success",
        connection,
        target: row.name,
        details: Object.fromEntries(
          changed.map((key) => [key, { from: shown(key, before[key]), to: shown(key, next[key]) }]),
        ),
      },
      tx,
    );
  });
  return { ok: true };
}
