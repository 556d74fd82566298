import "server-only";

import crypto from "node:crypto";

import { asc, eq, sql } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { Role } from "@/lib/auth/roles";
import { userShownName } from "@/lib/auth/users";
import type { ActionFailure, ActionResult } from "@/lib/call-action";
import { getDb } from "@/lib/db";
import { alertNoticeTargets, type AlertNoticeTarget } from "@/lib/db/alerts-schema";
import { consoleUsers } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { isUniqueViolation } from "@/lib/error-message";
import { checkUrlToSave, outboundPolicyFromEnv, type OutboundPolicy } from "@/lib/outbound/address-policy";
import { urlOrigin } from "@/lib/outbound/shown-to-role";
import { decryptSecret, encryptSecret, newSigningSecret, SecretDecryptionError } from "@/lib/secrets";

import { ENVIRONMENT_TARGET_NAMES, MAX_NOTICE_TARGETS, TEST_NOTICE_TYPE } from "./constants";
import { postNotice, targetSecretBinding, type NoticeSenderOptions } from "./notice-sender";
import { consoleUrl, noticeTargets } from "./notices";
import { addNoticeTargetSchema, noticeTargetIdSchema } from "./schemas";
import type { NoticeTargetSecretResult, NoticeTargetSummary, TestNoticeResult } from "./types";

/**
 * The webhook notice targets an admin manages on the Alerts page, beside the environment's: each has a Standard
 * Webhooks secret of its own, shown once when added and sealed to its row; every change is audited. ./notices.ts
 * queues a notice for each, ./notice-sender.ts signs it with that target's secret.
 */

const GONE = { ok: false, error: "This notice target no longer exists." } as const;

/**
 * For admins origin and path: a query (or a Slack-like token in it) is not for a list; for support the
 * origin only, as a token in the path is a secret too.
 */
const shownWhere = (url: string, role: Role) => {
  const { origin, pathname } = new URL(url);
  return role === "admin" ? `${origin}${pathname}` : urlOrigin(url);
};

/** How many the environment's email goes to, never who. */
const recipients = (n: number) => `${n} ${n === 1 ? "recipient" : "recipients"}`;

/**
 * Every target of the notices, as `role` may see it: the environment's first (not removable here), then the page's,
 * oldest first.
 */
export async function listNoticeTargets(role: Role): Promise<NoticeTargetSummary[]> {
  const e = env();
  const fromEnvironment = noticeTargets().map((target): NoticeTargetSummary => ({
    id: null,
    source: "environment",
    channel: target.channel,
    // In words: the setting's name is for the operator, in docs/alerts.md.
    name: ENVIRONMENT_TARGET_NAMES[target.channel],
    // Only the origin: the operator's URL may carry a token in its path (Slack's do), and admins did not type it.
    where: target.channel === "webhook" ? urlOrigin(target.url) : recipients(e.CONSOLE_ALERT_EMAIL_TO.length),
    createdAt: null,
    createdBy: null,
  }));
  const db = await getDb();
  const rows = await db
    .select({
      id: alertNoticeTargets.id,
      name: alertNoticeTargets.name,
      url: alertNoticeTargets.url,
      createdAt: alertNoticeTargets.createdAt,
      createdBy: userShownName,
    })
    .from(alertNoticeTargets)
    .leftJoin(consoleUsers, eq(consoleUsers.id, alertNoticeTargets.createdBy))
    .orderBy(asc(alertNoticeTargets.createdAt), asc(alertNoticeTargets.id));
  const fromPage = rows.map((row): NoticeTargetSummary => ({
    id: row.id,
    source: "page",
    channel: "webhook",
    name: row.name,
    where: shownWhere(row.url, role),
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
  }));
  return [...fromEnvironment, ...fromPage];
}

class TooManyTargets extends Error {}

/**
 * pg_advisory_xact_lock's key while a target is added: "targets" in ASCII, so two adds cannot pass the cap
 * together.
 */
const ADD_LOCK = 0x74617267657473;

/**
 * Adds a webhook target for every alert's notices. Its URL passes lib/outbound's checks (the same words as
 * a destination's); its new Standard Webhooks secret is answered this once.
 */
export async function addNoticeTarget(
  actor: AuditActor,
  raw: unknown,
  policy: OutboundPolicy = outboundPolicyFromEnv(),
): Promise<NoticeTargetSecretResult> {
  const parsed = addNoticeTargetSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    return {
      ok: false,
      error: issue?.message ?? "Check the form.",
      field: field === "name" || field === "url" ? field : undefined,
    };
  }
  const { name } = parsed.data;
  const url = await checkUrlToSave(parsed.data.url, policy);
  if (!url.ok) return { ok: false, error: url.error, field: "url" };

  const id = crypto.randomUUID();
  const secret = newSigningSecret();
  const db = await getDb();
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ADD_LOCK})`);
      const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(alertNoticeTargets);
      if (n >= MAX_NOTICE_TARGETS) throw new TooManyTargets();
      const secretCiphertext = encryptSecret(secret, targetSecretBinding(id));
      await tx
        .insert(alertNoticeTargets)
        .values({ id, name, url: url.url.href, secretCiphertext, createdBy: actor.id });
      await recordAudit(
        {
          actor,
          action: "alert.target_added",
          outcome: "success",
          target: name,
          details: { targetId: id, url: url.url.origin },
        },
        tx,
      );
    });
  } catch (error) {
    if (error instanceof TooManyTargets)
      return {
        ok: false,
        error: `The Alerts page holds at most ${MAX_NOTICE_TARGETS} notice targets: remove one first.`,
      };
    if (isUniqueViolation(error))
      return { ok: false, error: `A notice target named ${name} already exists.`, field: "name" };
    throw error;
  }
  return { ok: true, id, name, secret };
}

/** The page target the request names, or what to answer instead. */
async function findTarget(raw: unknown): Promise<{ ok: true; row: AlertNoticeTarget } | ActionFailure> {
  const parsed = noticeTargetIdSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  const db = await getDb();
  const [row] = await db
    .select()
    .from(alertNoticeTargets)
    .where(eq(alertNoticeTargets.id, parsed.data.targetId))
    .limit(1);
  return row ? { ok: true, row } : GONE;
}

/** Removes a page target, with the notices still queued for it. */
export async function removeNoticeTarget(actor: AuditActor, raw: unknown): Promise<ActionResult> {
  const found = await findTarget(raw);
  if (!found.ok) return found;
  const { row } = found;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(alertNoticeTargets)
      .where(eq(alertNoticeTargets.id, row.id))
      .returning({ id: alertNoticeTargets.id });
    if (!gone) return GONE;
    await recordAudit(
      {
        actor,
        action: "alert.target_removed",
        outcome: "success",
        target: row.name,
        details: { targetId: row.id, url: new URL(row.url).origin },
      },
      tx,
    );
    return { ok: true } as const;
  });
}

/**
 * Posts a signed `alert.test` notice to a page target at once, through the guarded client (no queue, no
 * retry), and answers what came back. Audited with its outcome.
 */
export async function sendTestNotice(
  actor: AuditActor,
  raw: unknown,
  options: NoticeSenderOptions = {},
): Promise<TestNoticeResult> {
  const found = await findTarget(raw);
  if (!found.ok) return found;
  const { row } = found;
  let secret: string;
  try {
    secret = decryptSecret(row.secretCiphertext, targetSecretBinding(row.id));
  } catch (error) {
    if (!(error instanceof SecretDecryptionError)) throw error;
    return {
      ok: false,
      error: `The secret of ${row.name} cannot be read (${error.reason}): remove the target and add it again.`,
    };
  }
  const now = new Date();
  const subject = "Test notice from Tenant Console";
  const alertsUrl = consoleUrl("/alerts");
  const body = JSON.stringify({
    type: TEST_NOTICE_TYPE,
    timestamp: now.toISOString(),
    subject,
    text: `*${subject}*\nAlert notices reach ${row.name}. Open in Tenant Console: ${alertsUrl}`,
    data: { target: { id: row.id, name: row.name }, links: { alerts: alertsUrl } },
  });
  const sent = await postNotice(row.url, secret, `alert-test-${crypto.randomUUID()}`, body, options);
  const outcome = sent.outcome.replace(/^webhook: /, "");
  await recordAudit({
    actor,
    action: "alert.target_tested",
    outcome: sent.ok ? "success" : "failure",
    target: row.name,
    details: { targetId: row.id, outcome },
  });
  return sent.ok
    ? { ok: true, outcome: `${row.name} ${outcome}.` }
    : { ok: false, error: `The test notice to ${row.name} failed: ${outcome}.` };
}
