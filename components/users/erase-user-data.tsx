"use client";

import { Suspense, useId, useState } from "react";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldControlProps, Input, Select } from "@/components/ui/input";
import { onDemand } from "@/components/ui/on-demand";
import { callAction } from "@/lib/call-action";
import { previewEndUserErasureAction } from "@/lib/erasure/actions";
import type { EndUserErasureInput } from "@/lib/erasure/schemas";
import type { ErasurePreviewResult } from "@/lib/erasure/types";

// The dialog's content loads when an admin first reaches for the button: the page's first load does not carry it.
const ErasePanel = onDemand(() => import("./erase-panel").then((m) => m.ErasePanel));

type Request = { input: EndUserErasureInput; preview: Promise<ErasurePreviewResult> };

/**
 * "Erase a user's data" (admins): a user id and where (this connection, or every one); the dialog counts
 * first what would go, then asks for the id typed again. The id starts as the one the page was asked about.
 */
export function EraseUserData({
  connectionId,
  connectionName,
  userId: initialUserId,
}: {
  connectionId: string;
  connectionName: string;
  userId: string;
}) {
  const ids = { userId: useId(), scope: useId(), heading: useId() };
  const [userId, setUserId] = useState(initialUserId);
  const [everywhere, setEverywhere] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [request, setRequest] = useState<Request | null>(null);
  const ask = () => {
    const id = userId.trim();
    if (!id) return setError("Enter a user id.");
    setError(undefined);
    const input = { userId: id, connectionId: everywhere ? null : connectionId };
    setRequest({ input, preview: callAction(() => previewEndUserErasureAction(input)) });
  };
  return (
    <Card>
      <h2 id={ids.heading} className="text-base font-semibold text-slate-900 dark:text-slate-100">
        Erase a user&apos;s data
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Deletes what the console holds about one end user: their events, with the rejections and forwards of those
        events, and their id, email and phone number wherever else they appear. Erase the user at the service too, or
        its next events are stored again.
      </p>
      <form
        aria-labelledby={ids.heading}
        className="mt-4 grid max-w-3xl items-start gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,14rem)_auto]"
        onSubmit={(event) => {
          event.preventDefault();
          ask();
        }}
      >
        <Field id={ids.userId} label="User id to erase" error={error}>
          <Input
            {...fieldControlProps(ids.userId, error)}
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field id={ids.scope} label="In">
          <Select
            id={ids.scope}
            value={everywhere ? "all" : "one"}
            onChange={(e) => setEverywhere(e.target.value === "all")}
          >
            <option value="one">{connectionName} only</option>
            <option value="all">Every connection</option>
          </Select>
        </Field>
        {/* On the fields' row, below their labels (a line of text-sm and Field's gap). */}
        <Button
          type="submit"
          variant="danger"
          untilHydrated
          className="h-9 sm:mt-6.5"
          onPointerEnter={ErasePanel.preload}
          onFocus={ErasePanel.preload}
        >
          Erase data…
        </Button>
      </form>
      <Dialog open={request !== null} onClose={() => setRequest(null)} title="Erase a user's data">
        {request ? (
          <Suspense fallback={<Counting userId={request.input.userId} />}>
            <ErasePanel.Component request={request.input} preview={request.preview} onClose={() => setRequest(null)} />
          </Suspense>
        ) : null}
      </Dialog>
    </Card>
  );
}

/** While the console counts (and the dialog's code loads). */
function Counting({ userId }: { userId: string }) {
  return (
    <p role="status" className="text-sm text-slate-700 [overflow-wrap:anywhere] dark:text-slate-300">
      Counting what the console holds about <code className="font-mono">{userId}</code>…
    </p>
  );
}
