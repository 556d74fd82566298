"use client";

import { use, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import { TypedConfirmField } from "@/components/ui/typed-confirm-dialog";
import { callAction } from "@/lib/call-action";
import { eraseEndUserDataAction } from "@/lib/erasure/actions";
import { DELIVERED_FORWARDS_STAY, ERASED } from "@/lib/erasure/constants";
import { countsInWords } from "@/lib/erasure/display";
import type { EndUserErasureInput } from "@/lib/erasure/schemas";
import type { ErasureOutcome, ErasurePreview, ErasurePreviewResult } from "@/lib/erasure/types";

const Id = ({ children }: { children: string }) => (
  <code className="font-mono [overflow-wrap:anywhere]">{children}</code>
);

/**
 * The erase dialog's content (loaded when first wanted, see erase-user-data.tsx): what the console holds
 * about the user, per connection, counted before anything goes; the id typed again; then what was erased.
 * Mounted while the dialog is open, so each opening counts afresh.
 */
export function ErasePanel({
  request,
  preview: pending,
  onClose,
}: {
  request: EndUserErasureInput;
  preview: Promise<ErasurePreviewResult>;
  onClose: () => void;
}) {
  const preview = use(pending);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ErasureOutcome | null>(null);
  // Guards against a second submit before React has re-rendered the disabled button.
  const sending = useRef(false);

  if (!preview.ok) {
    return (
      <div className="space-y-4">
        <Alert tone="danger">{preview.error}</Alert>
        <CloseButton onClose={onClose} />
      </div>
    );
  }
  const where = preview.connectionName ? `in ${preview.connectionName}` : "in every connection";
  const In = preview.connectionName ? `In ${preview.connectionName}` : "In every connection";
  if (outcome) {
    return (
      <div className="space-y-4 text-sm">
        <Alert tone="success" title="Erased">
          <p className="[overflow-wrap:anywhere]">
            Erased {countsInWords(outcome.erased)} about <Id>{preview.userId}</Id> {where}. The audit log records it by
            a keyed hash of the id, never the id itself.
          </p>
        </Alert>
        <p className="text-slate-700 dark:text-slate-300">{DELIVERED_FORWARDS_STAY}</p>
        <CloseButton onClose={onClose} focus />
      </div>
    );
  }
  const confirm = async () => {
    if (typed !== preview.userId || sending.current) return;
    sending.current = true;
    setBusy(true);
    setFailure(null);
    const result = await callAction(() =>
      eraseEndUserDataAction({ ...request, userId: preview.userId, confirmUserId: typed }),
    );
    sending.current = false;
    setBusy(false);
    if (result.ok) setOutcome(result);
    else setFailure(result.error);
  };
  return (
    <form
      className="space-y-4 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        void confirm();
      }}
    >
      <Found preview={preview} where={In} />
      <Alert tone="warning">
        This cannot be undone. {DELIVERED_FORWARDS_STAY} Events the service sends about this user afterwards are stored
        again.
      </Alert>
      {failure ? <Alert tone="danger">{failure}</Alert> : null}
      <TypedConfirmField expected={preview.userId} value={typed} onChange={setTyped} autoFocus />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" disabled={typed !== preview.userId || busy} aria-busy={busy}>
          {busy ? "Erasing…" : "Erase permanently"}
        </Button>
      </div>
    </form>
  );
}

const STATS = [
  ["events", "Events"],
  ["rejections", "Rejections"],
  ["deliveries", "Forwards"],
  ["attempts", "Attempts"],
] as const;

/** What the count found: in all, per connection for every one, what names the user elsewhere, earlier erasures. */
function Found({ preview, where }: { preview: ErasurePreview; /** "In Acme" */ where: string }) {
  const { total, connections, erasedBefore } = preview;
  const mentions = { watches: total.watches, auditRecords: total.auditRecords, replays: total.replays };
  return (
    <div role="status" className="space-y-3 text-slate-700 dark:text-slate-300" data-testid="erasure-count">
      <p className="[overflow-wrap:anywhere]">
        {where}, the console holds{" "}
        <strong className="text-slate-900 dark:text-slate-100">{countsInWords({ ...total, ...noMentions })}</strong>{" "}
        about <Id>{preview.userId}</Id>.
      </p>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {STATS.map(([kind, label]) => (
          <div
            key={kind}
            className="rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200 dark:bg-slate-800/60 dark:ring-slate-700"
          >
            <dt className="text-xs text-slate-600 dark:text-slate-400">{label}</dt>
            <dd className="text-lg font-semibold text-slate-900 tabular-nums dark:text-slate-100">
              {total[kind].toLocaleString("en")}
            </dd>
          </div>
        ))}
      </dl>
      {preview.connectionName === null && connections.length > 0 ? (
        <ul aria-label="By connection" className="space-y-1">
          {connections.map((c) => (
            <li key={c.connectionId} className="[overflow-wrap:anywhere]">
              <span className="font-medium text-slate-900 dark:text-slate-100">{c.connectionName}</span>:{" "}
              {countsInWords(c)}
            </li>
          ))}
        </ul>
      ) : null}
      {countsInWords(mentions) !== "nothing" ? (
        <p>
          Also {countsInWords(mentions)}: watch list entries go; audit records and replays stay, with the id, email and
          phone number replaced by <code>{ERASED}</code>.
        </p>
      ) : null}
      {countsInWords(total) === "nothing" ? <p>Erasing it all the same records the request in the audit log.</p> : null}
      {erasedBefore.count > 0 && erasedBefore.lastAt ? (
        <p>
          Erased before: {erasedBefore.count === 1 ? "once" : `${erasedBefore.count} times`}, last{" "}
          <Time iso={erasedBefore.lastAt} />.
        </p>
      ) : null}
    </div>
  );
}

/** The counts of what names the user outside their events, left out of the events' sentence. */
const noMentions = { watches: 0, auditRecords: 0, replays: 0 };

function CloseButton({ onClose, focus = false }: { onClose: () => void; focus?: boolean }) {
  return (
    <div className="flex justify-end">
      <Button variant="secondary" onClick={onClose} autoFocus={focus}>
        Close
      </Button>
    </div>
  );
}
