import "server-only";

import crypto from "node:crypto";

import { asc, count, eq } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { Role } from "@/lib/auth/roles";
import type { ActionResult } from "@/lib/call-action";
import { getConnection } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { isUniqueViolation } from "@/lib/error-message";
import { checkUrlToSave, outboundPolicyFromEnv, type OutboundPolicy } from "@/lib/outbound/address-policy";
import { newSigningSecret } from "@/lib/secrets";

import {
  MAX_DESTINATIONS_PER_CONNECTION,
  SERVICE_SIGNING_NEEDS_SERVER_KEY,
  SERVICE_SIGNING_TAKES_ONLY_VERIFIED,
} from "./constants";
import { findDestination, GONE, sealDestinationSecret } from "./find";
import { listDestinationSummaries } from "./health";
import { startReplayQueuing } from "./replay-queue";
import {
  createDestinationSchema,
  destinationIdSchema,
  setDestinationEnabledSchema,
  setDestinationRateSchema,
  type CreateDestinationInput,
} from "./schemas";
import type { DestinationDetail, DestinationField, DestinationSecretResult, DestinationSummary } from "./types";
import { startForwarding as startForwardingWorker, wakeForwarding } from "./worker";

export { findDestination, GONE } from "./find";
export { revealDestinationSecret, rotateDestinationSecret } from "./secret";
export { sendDestinationTestEvent } from "./test-event";
export { updateDestination } from "./update";

/**
 * A connection's forwarding destinations: where the events it receives go next (lib/destinations/outbox.ts
 * and worker.ts send them). Admins change them, every change audited; the pages list them for everyone.
 */

/** Starts this process's forwarding: its worker, and the queuing of replays that a restart interrupted. */
export function startForwarding(): void {
  startForwardingWorker();
  startReplayQueuing();
}

/** A connection's destinations with their health; a URL's query string is for admins only. */
export const listDestinations = (connectionId: string, role: Role): Promise<DestinationSummary[]> =>
  listDestinationSummaries(connectionId, role);

/** One destination as its own page shows it (any connection's: the page follows the destination), or null. */
export async function getDestinationDetail(destinationId: string, role: Role): Promise<DestinationDetail | null> {
  const db = await getDb();
  const [row] = await db.select().from(forwardDestinations).where(eq(forwardDestinations.id, destinationId)).limit(1);
  if (!row) return null;
  const connection = await getConnection(row.connectionId);
  const summary = (await listDestinationSummaries(row.connectionId, role)).find((d) => d.id === row.id);
  if (!connection || !summary) return null;
  const hasSecret = row.signing === "standard_webhooks" && row.secretCiphertext !== null;
  return { ...summary, connectionName: connection.name, hasSecret };
}

/** A connection's destinations by name, for a choice (the log's replay). */
export async function listDestinationChoices(
  connectionId: string,
): Promise<Array<{ id: string; name: string; enabled: boolean }>> {
  const db = await getDb();
  return db
    .select({ id: forwardDestinations.id, name: forwardDestinations.name, enabled: forwardDestinations.enabled })
    .from(forwardDestinations)
    .where(eq(forwardDestinations.connectionId, connectionId))
    .orderBy(asc(forwardDestinations.name));
}

export async function createDestination(
  actor: AuditActor,
  raw: CreateDestinationInput,
  policy: OutboundPolicy = outboundPolicyFromEnv(),
): Promise<DestinationSecretResult> {
  const parsed = createDestinationSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    return {
      ok: false,
      error: issue?.message ?? "Check the form.",
      field: FORM_FIELDS.includes(field as DestinationField) ? (field as DestinationField) : undefined,
    };
  }
  const input = parsed.data;
  const connection = await getConnection(input.connectionId);
  if (!connection) return { ok: false, error: "This connection no longer exists." };
  const url = await checkUrlToSave(input.url, policy);
  if (!url.ok) return { ok: false, error: url.error, field: "url" };
  if (input.signing === "service" && !connection.keys.server)
    return { ok: false, error: SERVICE_SIGNING_NEEDS_SERVER_KEY, field: "signing" };
  if (input.signing === "service" && input.includeUnverified)
    return { ok: false, error: SERVICE_SIGNING_TAKES_ONLY_VERIFIED, field: "includeUnverified" };

  const db = await getDb();
  const id = crypto.randomUUID();
  const secret = input.signing === "standard_webhooks" ? newSigningSecret() : null;
  try {
    await db.transaction(async (tx) => {
      const [{ existing } = { existing: 0 }] = await tx
        .select({ existing: count() })
        .from(forwardDestinations)
        .where(eq(forwardDestinations.connectionId, connection.id));
      if (existing >= MAX_DESTINATIONS_PER_CONNECTION) throw new TooManyDestinations();
      await tx.insert(forwardDestinations).values({
        id,
        connectionId: connection.id,
        name: input.name,
        url: url.url.href,
        signing: input.signing,
        eventTypes: input.eventTypes.length > 0 ? input.eventTypes : null,
        verificationMethods: input.verificationMethods.length > 0 ? input.verificationMethods : null,
        includeUnverified: input.includeUnverified,
        maxPerSecond: input.maxPerSecond ?? null,
        secretCiphertext: secret ? sealDestinationSecret(secret, connection.id, id) : null,
        createdBy: actor.id,
      });
      await recordAudit(
        {
          actor,
          action: "destination.created",
          outcome: "success",
          connection,
          target: input.name,
          details: {
            url: url.url.origin,
            signing: input.signing,
            eventTypes: input.eventTypes,
            verificationMethods: input.verificationMethods,
            includeUnverified: input.includeUnverified,
            maxPerSecond: input.maxPerSecond ?? null,
          },
        },
        tx,
      );
    });
  } catch (error) {
    if (error instanceof TooManyDestinations)
      return { ok: false, error: `A connection has at most ${MAX_DESTINATIONS_PER_CONNECTION} destinations.` };
    if (isUniqueViolation(error))
      return { ok: false, error: `This connection already has a destination named ${input.name}.`, field: "name" };
    throw error;
  }
  return { ok: true, id, name: input.name, secret };
}

class TooManyDestinations extends Error {}

const FORM_FIELDS: readonly DestinationField[] = ["name", "url", "signing", "includeUnverified", "maxPerSecond"];

/** Turns a destination off (nothing queued or sent) or on again; on also lifts an automatic pause. */
export async function setDestinationEnabled(actor: AuditActor, raw: unknown): Promise<ActionResult> {
  const parsed = setDestinationEnabledSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  const { connectionId, destinationId, enabled } = parsed.data;
  const found = await findDestination(connectionId, destinationId);
  if (!found) return GONE;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(forwardDestinations)
      .set(
        enabled
          ? { enabled, pausedAt: null, failingSince: null, updatedAt: new Date() }
          : { enabled, updatedAt: new Date() },
      )
      .where(eq(forwardDestinations.id, destinationId));
    const action = enabled
      ? found.row.pausedAt
        ? "destination.resumed"
        : "destination.enabled"
      : "destination.disabled";
    await recordAudit({ actor, action, outcome: "success", connection: found.connection, target: found.row.name }, tx);
  });
  // Turned on or resumed, it may have deliveries waiting: this instance's workers look now.
  wakeForwarding();
  return { ok: true };
}

/** Changes a destination's cap on deliveries per second (null: none); audited as destination.rate_changed. */
export async function setDestinationRate(actor: AuditActor, raw: unknown): Promise<ActionResult> {
  const parsed = setDestinationRateSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Check the request." };
  const { connectionId, destinationId, maxPerSecond } = parsed.data;
  const found = await findDestination(connectionId, destinationId);
  if (!found) return GONE;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(forwardDestinations)
      .set({ maxPerSecond, updatedAt: new Date() })
      .where(eq(forwardDestinations.id, destinationId));
    await recordAudit(
      {
        actor,
        action: "destination.rate_changed",
        outcome: "success",
        connection: found.connection,
        target: found.row.name,
        details: { from: found.row.maxPerSecond, to: maxPerSecond },
      },
      tx,
    );
  });
  return { ok: true };
}

/** Removes a destination with its queue and its attempts. */
export async function removeDestination(actor: AuditActor, raw: unknown): Promise<ActionResult> {
  const parsed = destinationIdSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  const found = await findDestination(parsed.data.connectionId, parsed.data.destinationId);
  if (!found) return GONE;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(forwardDestinations).where(eq(forwardDestinations.id, found.row.id));
    await recordAudit(
      {
        actor,
        action: "destination.removed",
        outcome: "success",
        connection: found.connection,
        target: found.row.name,
        details: { url: new URL(found.row.url).origin },
      },
      tx,
    );
  });
  return { ok: true };
}
