"use client";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";

/**
 * A secret shown this once: by default a Standard Webhooks secret (a forwarding destination's, an alert
 * notice target's), which the console keeps encrypted and never shows again; `note` words another kind
 * (an API token's, kept only as a hash).
 */
export function SecretReveal({
  name,
  secret,
  rotated,
  testId,
  onDone,
  note,
}: {
  name: string;
  secret: string;
  rotated: boolean;
  testId: string;
  onDone: () => void;
  note?: React.ReactNode;
}) {
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
          className="min-w-0 flex-1 rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all select-all dark:bg-slate-800"
        >
          {secret}
        </code>
        <CopyButton text={secret} label="Copy secret" />
      </div>
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

/** An "Add …" dialog's view once added (AddDialog's `shown`): the new signing secret of what was added, this once. */
export const newSecretShown = (testId: string, onDone: () => void) => (added: { name: string; secret: string }) => ({
  title: `Signing secret of ${added.name}`,
  view: <SecretReveal name={added.name} secret={added.secret} rotated={false} testId={testId} onDone={onDone} />,
});
