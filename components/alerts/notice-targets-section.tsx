import { Badge } from "@/components/ui/badge";
import { Card, EmptyState } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import { MAX_NOTICE_TARGETS } from "@/lib/alerts/constants";
import type { NoticeTargetSummary } from "@/lib/alerts/types";

import { AddNoticeTarget } from "./add-notice-target";
import { NoticeTargetControls } from "./notice-target-controls";

const muted = "text-sm text-slate-600 dark:text-slate-400";
/** The documentation page that names the configuration's settings of the notices (the console serves no docs). */
const DOCS = "Alerts, \u201cNotices\u201d, in docs/alerts.md";

/**
 * Where every alert's notices go, for admins only (the page renders nothing of it for support): the
 * environment's targets, which only the environment changes, and those added here, each signed with a
 * secret of its own; add, test and remove.
 */
export function NoticeTargetsSection({ targets }: { targets: NoticeTargetSummary[] }) {
  const added = targets.filter((t) => t.source === "page").length;
  return (
    <section aria-labelledby="notice-targets-heading" className="mt-10 space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="notice-targets-heading" className="text-lg font-semibold text-slate-900 dark:text-slate-100">
            Notice targets
          </h2>
          <p className={`${muted} max-w-3xl`}>
            Every alert&rsquo;s notices (opened, reminders, resolved) go to each target. Those set in the
            console&rsquo;s configuration change only there, by whoever runs the console; up to {MAX_NOTICE_TARGETS}{" "}
            webhook targets can be added here ({added} so far), each signing its notices with a Standard Webhooks secret
            of its own.
          </p>
        </div>
        <AddNoticeTarget full={added >= MAX_NOTICE_TARGETS} />
      </div>
      {targets.length === 0 ? (
        <EmptyState title="No notice targets">
          Alerts show in the console only. Add a chat&rsquo;s incoming-webhook URL here. Whoever runs the console can
          also send every notice to fixed webhooks or by email from its configuration: the console&rsquo;s documentation
          names the settings ({DOCS}).
        </EmptyState>
      ) : (
        <Card className="p-0!">
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {targets.map((target, i) => (
              <li
                key={target.id ?? `env-${i}`}
                data-testid={`notice-target-${target.name}`}
                className="flex flex-wrap items-center justify-between gap-3 px-5 py-3"
              >
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900 dark:text-slate-100">
                    {target.name}
                    <Badge tone={target.source === "environment" ? "neutral" : "info"}>
                      {target.source === "environment" ? "Set in the configuration" : "Added here"}
                    </Badge>
                    {target.channel === "email" ? <Badge>Email</Badge> : null}
                  </p>
                  <p className={`${muted} break-all`}>
                    {target.channel === "webhook" ? <code>{target.where}</code> : target.where}
                    {target.createdAt ? (
                      <>
                        {" "}
                        · added <Time iso={target.createdAt} />
                        {target.createdBy ? ` by ${target.createdBy}` : null}
                      </>
                    ) : null}
                  </p>
                </div>
                {target.id ? <NoticeTargetControls target={{ id: target.id, name: target.name }} /> : null}
              </li>
            ))}
          </ul>
        </Card>
      )}
    </section>
  );
}
