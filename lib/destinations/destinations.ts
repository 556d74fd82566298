import "server-only";

import crypto from "node:crypto";

import { and, asc, count, eq } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { Role } from "@/lib/auth/roles";
import type { ActionResult } from "@/lib/call-action";
import { getConnection } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { isUniqueViolation } from "@/lib/error-message";
import { checkUrlToSave, outboundPolicyFromEnv, type OutboundPolicy } from "@/lib/outbound/address-policy";
import { decryptSecret, encryptSecret, newSigningSecret } from "@/lib/secrets";

import {
  MAX_DESTINATIONS_PER_CONNECTION,
  PREVIOUS_SECRET_HOURS,
  SERVICE_SIGNING_NEEDS_SERVER_KEY,
  SERVICE_SIGNING_TAKES_ONLY_VERIFIED,
} from "./constants";
import { listDestinationSummaries } from "./health";
import { startReplayQueuing } from "./replay-queue";
import {
  createDestinationSchema,
  destinationIdSchema,
  setDestinationEnabledSchema,
  setDestinationRateSchema,
  type CreateDestinationInput,
} from "./schemas";
import { readOr } from "./signers";
import type { DestinationField, DestinationSecretResult, DestinationSummary } from "./types";
import { startForwarding as startForwardingWorker, wakeForwarding } from "./worker";

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

const sealDestinationSecret = (secret: string, connectionId: string, destinationId: string, previous = false) =>
  encryptSecret(secret, {
    connectionId,
    destinationId,
    kind: previous ? "destination_previous_secret" : "destination_secret",
  });

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

/**
 * A new Standard Webhooks secret, shown this once; the one it replaces still signs beside it for
 * PREVIOUS_SECRET_HOURS, so a receiver can take the new one without missing an event.
 */
export async function rotateDestinationSecret(actor: AuditActor, raw: unknown): Promise<DestinationSecretResult> {
  const parsed = destinationIdSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  const found = await findDestination(parsed.data.connectionId, parsed.data.destinationId);
  if (!found) return GONE;
  const { row, connection } = found;
  if (row.signing !== "standard_webhooks" || !row.secretCiphertext)
    return { ok: false, error: "Only a Standard Webhooks destination has a secret to rotate." };
  const secret = newSigningSecret();
  // A secret that cannot be read any more (lib/destinations/signers.ts says so on the page) is replaced
  // without signing beside the new one: rotating is how an admin mends it.
  const current = readOr(
    () =>
      decryptSecret(row.secretCiphertext!, {
        connectionId: connection.id,
        destinationId: row.id,
        kind: "destination_secret",
      }),
    () => null,
  );
  const previousSecretExpiresAt = new Date(Date.now() + PREVIOUS_SECRET_HOURS * 3_600_000);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(forwardDestinations)
      .set({
        secretCiphertext: sealDestinationSecret(secret, connection.id, row.id),
        previousSecretCiphertext: current === null ? null : sealDestinationSecret(current, connection.id, row.id, true),
        previousSecretExpiresAt: current === null ? null : previousSecretExpiresAt,
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
        details: { previousSecretExpiresAt: current === null ? null : previousSecretExpiresAt },
      },
      tx,
    );
  });
  return { ok: true, id: row.id, name: row.name, secret };
}
