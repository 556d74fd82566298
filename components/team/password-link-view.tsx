"use client";

import { useId } from "react";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Time } from "@/components/ui/time";
import type { PasswordLink } from "@/lib/team/types";

import { EmailText } from "./member-details";

/**
 * A set-password link, shown once to the admin who made it, to copy and send. It is a credential until
 * used: it is not stored (only its hash is), so closing this is the last chance to copy it.
 */
export function PasswordLinkView({
  name,
  email,
  link,
  onDone,
}: {
  name: string;
  email: string;
  link: PasswordLink;
  onDone: () => void;
}) {
  const id = useId();
  return (
    <div className="space-y-4">
      <Alert tone="success">
        Send this link to <strong>{name}</strong> (<EmailText email={email} />
        ). It works once, for 24 hours (until <Time iso={link.expiresAt} absolute />
        ); it is not shown again.
      </Alert>
      <div className="space-y-1.5">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
          Set-password link
        </label>
        {/* Shown whole, like the webhook URL: a read-only text that wraps anywhere; focusing it selects it all. */}
        <textarea
          id={id}
          readOnly
          autoFocus
          rows={2}
          value={link.url}
          data-testid="password-link"
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
          className="field-sizing-content block min-h-9 w-full resize-none break-all rounded-md bg-slate-50 px-3 py-2 font-mono text-xs leading-5 text-slate-800 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 focus:outline-none dark:bg-slate-800/60 dark:text-slate-200 dark:ring-slate-600 dark:focus:ring-indigo-400"
        />
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <CopyButton text={link.url} label="Copy link" />
        <Button size="sm" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
