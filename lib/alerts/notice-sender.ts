import "server-only";

import { sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { Webhook } from "standardwebhooks";

import { getDb, rowsOf } from "@/lib/db";
import { storedNow } from "@/lib/db/stored-now";
import { MAX_ATTEMPTS, retryDelaySeconds } from "@/lib/destinations/constants";
import { env } from "@/lib/env";
import { outboundPolicyFromEnv, type OutboundPolicy } from "@/lib/outbound/address-policy";
import { postGuarded, type GuardedPostOptions } from "@/lib/outbound/guarded-post";
import { processSingleton } from "@/lib/process-singleton";
import { decryptSecret, SecretDecryptionError } from "@/lib/secrets";

import type { NoticeBody } from "./notices";

/**
 * Sends queued notices as forwarding sends deliveries: taken with a lease (FOR UPDATE SKIP LOCKED), sent once each,
 * recorded as sent, pending again (retryDelaySeconds) or failed (MAX_ATTEMPTS, or no retry could help). Webhooks
 * through lib/outbound, signed; email through nodemailer. An error is kept on the notice, never logged with the URL.
 */

const LEASE_SECONDS = 60;
const ATTEMPT_TIMEOUT_MS = 10_000;

/** A taken notice; `secret_ciphertext` is its page target's sealed secret (null for the environment's targets). */
type TakenNotice = {
  id: number;
  channel: string;
  target: string;
  body: string;
  attempts: number;
  target_id: string | null;
  secret_ciphertext: string | null;
};
/** `final`: no retry could change it (the target is gone, or the setting it needs): failed at once. */
type Sent = { ok: true; outcome: string } | { ok: false; outcome: string; final?: true };

export type NoticeSenderOptions = {
  policy?: OutboundPolicy;
  lookup?: GuardedPostOptions["lookup"];
  limit?: number;
  timeoutMs?: number;
};

/** One pass: sends what is due. Answers how many it took. */
export async function sendDueNotices(options: NoticeSenderOptions = {}): Promise<number> {
  const { limit = 20 } = options;
  const db = await getDb();
  const taken = rowsOf<TakenNotice>(
    await db.execute(sql`
    with due as (
      select id from alert_notices where state = 'pending' and due_at <= ${storedNow} order by due_at limit ${limit} for update skip locked
    )
    update alert_notices n set due_at = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = n.attempts + 1
    from due where n.id = due.id
    returning n.id, n.channel, n.target, n.body, n.attempts, n.target_id,
      (select t.secret_ciphertext from alert_notice_targets t where t.id = n.target_id) as secret_ciphertext`),
  );
  await Promise.all(
    taken.map(async (notice) => {
      const sent = await send(notice, options);
      const retry = retryDelaySeconds(notice.attempts);
      const state = sent.ok ? "sent" : sent.final || notice.attempts >= MAX_ATTEMPTS ? "failed" : "pending";
      await db.execute(sql`
        update alert_notices set state = ${state}::alert_notice_state, last_outcome = ${sent.outcome},
          sent_at = case when ${sent.ok} then now() else null end,
          due_at = case when ${state} = 'pending' then now() + make_interval(secs => ${retry}) else due_at end
        where id = ${Number(notice.id)}`);
    }),
  );
  return taken.length;
}

function send(notice: TakenNotice, options: NoticeSenderOptions): Promise<Sent> {
  return notice.channel === "email" ? sendEmail(JSON.parse(notice.body) as NoticeBody) : sendWebhook(notice, options);
}

/** A page target's secret, sealed to its row (lib/secrets.ts: `alert_target_secret` and the target's id). */
export const targetSecretBinding = (targetId: string) => ({ kind: "alert_target_secret", targetId }) as const;

function signingSecret(notice: TakenNotice): { ok: true; secret: string } | Extract<Sent, { ok: false }> {
  if (notice.target_id === null) {
    // Queued to an environment's URL that has since been taken out of the list: not sent there any more.
    if (!env().CONSOLE_ALERT_WEBHOOK_URLS.includes(notice.target))
      return { ok: false, outcome: "webhook: no longer in CONSOLE_ALERT_WEBHOOK_URLS, not sent", final: true };
    const secret = env().CONSOLE_ALERT_WEBHOOK_SECRET;
    return secret
      ? { ok: true, secret }
      : { ok: false, outcome: "CONSOLE_ALERT_WEBHOOK_SECRET is not set, so the notice cannot be signed", final: true };
  }
  try {
    return { ok: true, secret: decryptSecret(notice.secret_ciphertext ?? "", targetSecretBinding(notice.target_id)) };
  } catch (error) {
    if (!(error instanceof SecretDecryptionError)) throw error;
    return {
      ok: false,
      outcome: `webhook: the target's secret cannot be read (${error.reason}), so the notice cannot be signed`,
    };
  }
}

function sendWebhook(notice: TakenNotice, options: NoticeSenderOptions): Promise<Sent> {
  const signing = signingSecret(notice);
  if (!signing.ok) return Promise.resolve(signing);
  return postNotice(notice.target, signing.secret, `alert-notice-${notice.id}`, notice.body, options);
}

/**
 * One signed POST of a notice through the guarded client, in the Standard Webhooks scheme (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`): a 2xx is sent, anything else is said in words.
 */
export async function postNotice(
  url: string,
  secret: string,
  id: string,
  body: string,
  { policy = outboundPolicyFromEnv(), lookup, timeoutMs = ATTEMPT_TIMEOUT_MS }: NoticeSenderOptions,
): Promise<Sent> {
  const now = new Date();
  const headers = {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, now, body),
  };
  const result = await postGuarded(url, { headers, body, timeoutMs, maxResponseBytes: 1024, policy, lookup });
  if (result.kind === "failed") return { ok: false, outcome: `webhook: ${result.words}` };
  return { ok: result.status >= 200 && result.status < 300, outcome: `webhook: answered ${result.status}` };
}

/** The process's transporter, made again when the mail URL changes. */
const mail = () =>
  processSingleton("alerts.mailer", (): { current?: { url: string; transporter: Transporter } } => ({}));

function mailer(url: string): Transporter {
  const held = mail();
  if (held.current?.url !== url) {
    const timeouts = {
      connectionTimeout: ATTEMPT_TIMEOUT_MS,
      greetingTimeout: ATTEMPT_TIMEOUT_MS,
      socketTimeout: ATTEMPT_TIMEOUT_MS,
    };
    held.current = { url, transporter: nodemailer.createTransport(url, timeouts as object) };
  }
  return held.current.transporter;
}

async function sendEmail(body: NoticeBody): Promise<Sent> {
  const e = env();
  if (!e.CONSOLE_SMTP_URL || e.CONSOLE_ALERT_EMAIL_TO.length === 0)
    return { ok: false, outcome: "email: CONSOLE_SMTP_URL and CONSOLE_ALERT_EMAIL_TO are no longer set", final: true };
  try {
    await mailer(e.CONSOLE_SMTP_URL).sendMail({
      from: e.CONSOLE_ALERT_EMAIL_FROM,
      to: e.CONSOLE_ALERT_EMAIL_TO,
      subject: body.subject,
      text: body.text.replaceAll("*", ""),
    });
    return { ok: true, outcome: "email: accepted by the SMTP server" };
  } catch (error) {
    // The SMTP server's code, or the network error's: never its message, which may name the recipients.
    const { responseCode, code } = error as { responseCode?: number; code?: string };
    return {
      ok: false,
      outcome: responseCode
        ? `email: the SMTP server answered ${responseCode}`
        : `email: not sent (${code ?? "an error"})`,
    };
  }
}
