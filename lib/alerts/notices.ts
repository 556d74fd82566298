import "server-only";

import type { Executor } from "@/lib/db";
import { alertNotices, alertNoticeTargets, type Alert } from "@/lib/db/alerts-schema";
import { env } from "@/lib/env";
import { filtersToQuery } from "@/lib/webhooks/constants";

import { ALERT_KIND_TEXT, NOTICE_CHANGES, type NoticeChange } from "./constants";
import { alertHref, alertSummary, serverKeyHref } from "./display";
import type { AlertMeasure } from "./types";

/**
 * The notices an alert's change sends: one per target (the environment's URLs, the page's targets, email with
 * CONSOLE_SMTP_URL), queued in the evaluation's transaction, sent by ./notice-sender.ts. A notice names the
 * connection, the condition, its numbers and links; never an event's body, an email address or a phone number.
 */

export type NoticeTarget = { channel: "webhook"; url: string } | { channel: "email" };

/** Where notices go, as the environment says. */
export function noticeTargets(): NoticeTarget[] {
  const e = env();
  const targets: NoticeTarget[] = e.CONSOLE_ALERT_WEBHOOK_URLS.map((url) => ({ channel: "webhook", url }));
  if (e.CONSOLE_SMTP_URL && e.CONSOLE_ALERT_EMAIL_TO.length > 0) targets.push({ channel: "email" });
  return targets;
}

/** The console's address as a notice links to it. */
export const consoleUrl = (path: string) => new URL(path, env().CONSOLE_PUBLIC_URL ?? env().NEXTAUTH_URL).toString();

export type NoticeConnection = { id: string; name: string; region: string };

/**
 * A notice as it is sent: Standard Webhooks' shape (`type`, `timestamp`, `data`) with a top-level
 * `text`, so a Slack (or Mattermost, or Teams workflow) incoming-webhook URL shows it as is. Email sends
 * `subject` and `text`.
 */
export type NoticeBody = {
  type: (typeof NOTICE_CHANGES)[NoticeChange];
  timestamp: string;
  subject: string;
  text: string;
  data: {
    alert: {
      id: string;
      kind: Alert["kind"];
      title: string;
      state: Alert["state"];
      summary: string;
      measure: AlertMeasure;
      openedAt: string;
      resolvedAt: string | null;
    };
    connection: NoticeConnection;
    links: { alert: string; events: string; fix?: string };
  };
};

const HEADLINE: Record<NoticeChange, string> = { opened: "Alert", resolved: "Recovered", reminder: "Still open" };

export function noticeBody(change: NoticeChange, alert: Alert, connection: NoticeConnection, now: Date): NoticeBody {
  const measure = alert.measure as AlertMeasure;
  const title = ALERT_KIND_TEXT[alert.kind].label;
  const summary = alertSummary(alert.kind, measure, { asOfLastSeen: change === "resolved" });
  const openedAt = alert.openedAt.toISOString();
  const resolvedAt = alert.resolvedAt?.toISOString() ?? null;
  const links = {
    alert: consoleUrl(`/alerts?${filtersToQuery({ connectionId: connection.id, kind: alert.kind })}`),
    events: consoleUrl(alertHref({ kind: alert.kind, connectionId: connection.id, openedAt, resolvedAt })),
    ...(alert.kind === "bad_signatures" ? { fix: consoleUrl(serverKeyHref(connection.id)) } : {}),
  };
  const subject = `${HEADLINE[change]}: ${title} on ${connection.name} (${connection.region.toUpperCase()})`;
  const body =
    change === "resolved"
      ? `The condition has cleared (opened ${openedAt}, resolved ${resolvedAt}). It was: ${summary}`
      : summary;
  const text = [
    `*${subject}*`,
    body,
    `Open in Tenant Console: ${links.alert}`,
    ...(links.fix ? [`Enter the new server key: ${links.fix}`] : []),
  ].join("\n");
  return {
    type: NOTICE_CHANGES[change],
    timestamp: now.toISOString(),
    subject,
    text,
    data: {
      alert: { id: alert.id, kind: alert.kind, title, state: alert.state, summary, measure, openedAt, resolvedAt },
      connection,
      links,
    },
  };
}

/**
 * Queues notices in the caller's transaction (an evaluation's): each change gets one per target, the
 * environment's, then the Alerts page's, read once for all the changes. A page target's notice keeps its
 * id: it is signed with that target's secret.
 */
export function noticeQueue(tx: Executor, now: Date) {
  let targets: Promise<Array<{ channel: string; target: string; targetId: string | null }>> | undefined;
  const readTargets = async () => {
    const pageTargets = await tx
      .select({ id: alertNoticeTargets.id, url: alertNoticeTargets.url })
      .from(alertNoticeTargets)
      .orderBy(alertNoticeTargets.createdAt);
    return [
      ...noticeTargets().map((target) => ({
        channel: target.channel,
        target: target.channel === "webhook" ? target.url : "email",
        targetId: null,
      })),
      ...pageTargets.map((target) => ({ channel: "webhook", target: target.url, targetId: target.id })),
    ];
  };
  /** Queues one change's notices; answers how many. */
  return async (change: NoticeChange, alert: Alert, connection: NoticeConnection): Promise<number> => {
    targets ??= readTargets();
    const to = await targets;
    if (to.length === 0) return 0;
    const body = JSON.stringify(noticeBody(change, alert, connection, now));
    await tx.insert(alertNotices).values(to.map((target) => ({ alertId: alert.id, change, body, ...target })));
    return to.length;
  };
}
