"use client";

import { useEffect, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { useDialogCloseGuard, type CloseGuard } from "@/components/ui/dialog";

/**
 * A secret shown this once: by default a Standard Webhooks secret (a destination's, an alert notice target's);
 * `note` and `what` word another kind (an API token's). Until it is copied, closing its dialog asks first.
 */
export function SecretReveal({
  name,
  secret,
  rotated,
  testId,
  onDone,
  note,
  what = "secret",
}: {
  name: string;
  secret: string;
  rotated: boolean;
  testId: string;
  onDone: () => void;
  note?: React.ReactNode;
  /** What the secret is, in the question asked before closing uncopied: "token", "secret". */
  what?: string;
}) {
  const [copied, setCopied] = useState(false);
  const [asking, setAsking] = useState(false);
  const [guard] = useState<CloseGuard>(() => () => {
    setAsking(true);
    return true;
  });
  useDialogCloseGuard(copied ? null : guard);
  const stay = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) stay.current?.focus();
  }, [asking]);
  const copy = () => {
    setCopied(true);
    setAsking(false);
  };

  return (
    <div className="space-y-4">
      <Alert tone="warning" title="Copy it now">
        {note ?? (
          <>
            This is the only time the console shows {name}&rsquo;s signing secret. Give it to the receiving application,
            which verifies
            <code className="mx-1">webhook-signature</code>with it.
            {rotated
              ? " The previous secret still signs beside it for 24 hours, so the receiver can switch without missing an event."
              : null}
          </>
        )}
      </Alert>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-testid={testId}
          onCopy={copy}
          className="min-w-0 flex-1 rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all select-all dark:bg-slate-800"
        >
          {secret}
        </code>
        <CopyButton text={secret} label="Copy secret" onCopied={copy} />
      </div>
      {asking ? (
        <div role="alertdialog" aria-labelledby={`${testId}-ask`} className="space-y-3">
          <Alert tone="danger">
            <span id={`${testId}-ask`}>Close without copying? You will not see this {what} again.</span>
          </Alert>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="danger" onClick={onDone}>
              Close without copying
            </Button>
            <Button ref={stay} variant="secondary" onClick={() => setAsking(false)}>
              Go back
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex justify-end">
          <Button onClick={onDone}>Done</Button>
        </div>
      )}
    </div>
  );
}

/** An "Add …" dialog's view once added (AddDialog's `shown`): the new signing secret of what was added, this once. */
export const newSecretShown = (testId: string, onDone: () => void) => (added: { name: string; secret: string }) => ({
  title: `Signing secret of ${added.name}`,
  view: <SecretReveal name={added.name} secret={added.secret} rotated={false} testId={testId} onDone={onDone} />,
});
