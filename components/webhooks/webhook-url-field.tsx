"use client";

import { RefreshCw } from "lucide-react";
import { useId, useState } from "react";

import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { toast } from "@/components/ui/toast";
import { TypedConfirmDialog } from "@/components/ui/typed-confirm-dialog";
import { regenerateWebhookUrlAction } from "@/lib/webhooks/actions";

export function WebhookUrlField({
  connectionId,
  connectionName,
  initialUrl,
}: {
  connectionId: string;
  connectionName: string;
  /** Null when the stored URL cannot be read: nothing to show or copy until it is regenerated. */
  initialUrl: string | null;
}) {
  const id = useId();
  const [url, setUrl] = useState<string | null>(initialUrl);
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        Receiver URL
      </label>
      {/*
        The one value an admin must read and paste, so it is shown whole: a read-only text area that
        wraps anywhere (a URL has no spaces) and grows with its text; focusing it selects it all.
      */}
      <textarea
        id={id}
        readOnly
        rows={2}
        value={url ?? ""}
        placeholder={url === null ? "Cannot be shown: regenerate the URL" : undefined}
        data-testid="webhook-url"
        spellCheck={false}
        onFocus={(e) => e.currentTarget.select()}
        className="field-sizing-content block min-h-9 w-full resize-none break-all rounded-md bg-slate-50 dark:bg-slate-800 px-3 py-2 font-mono text-xs leading-5 text-slate-800 dark:text-slate-200 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 focus:outline-none"
      />
      <div className="flex flex-wrap items-center gap-2">
        {url === null ? null : <CopyButton text={url} label="Copy URL" />}
        <TypedConfirmDialog
          trigger={(open) => (
            <Button variant="secondary" size="sm" onClick={open}>
              <RefreshCw aria-hidden="true" className="size-4" />
              Regenerate
            </Button>
          )}
          title="Regenerate the webhook URL?"
          expected={connectionName}
          confirmLabel="Regenerate URL"
          action={(typed) => regenerateWebhookUrlAction({ connectionId, confirmName: typed })}
          onDone={(result) => {
            setUrl(result.url);
            toast.success(
              "New webhook URL created. Paste it into the tenant's settings: the old one is refused from now on.",
            );
          }}
        >
          <p>
            The current URL stops working at once: the service&apos;s deliveries to it will be refused (and retried,
            then dropped) until the tenant&apos;s settings hold the new URL.
          </p>
        </TypedConfirmDialog>
      </div>
    </div>
  );
}
