"use client";

import { useId, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { callAction, type ActionFailure } from "@/lib/call-action";

/**
 * The typed confirmation: the expected text in a chip, the field, and a polite note, tied to it, when a
 * non-empty text differs (so a disabled button is never a riddle).
 */
export function TypedConfirmField({
  expected,
  value,
  onChange,
  autoFocus,
}: {
  expected: string;
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
}) {
  const inputId = useId();
  const mismatch = value !== "" && value !== expected;
  return (
    <div className="space-y-1.5">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        Type{" "}
        <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[0.8125rem] text-slate-900 ring-1 ring-inset ring-slate-300 select-all break-all dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600">
          {expected}
        </code>{" "}
        to confirm
      </label>
      <Input
        id={inputId}
        value={value}
        autoComplete="off"
        spellCheck={false}
        autoFocus={autoFocus}
        aria-invalid={mismatch ? true : undefined}
        aria-describedby={`${inputId}-match`}
        onChange={(e) => onChange(e.target.value)}
      />
      {/* Always in the page, so the polite live region announces the message when it appears. */}
      <p id={`${inputId}-match`} aria-live="polite" className="min-h-5 text-sm text-red-700 dark:text-red-400">
        {mismatch ? `That does not match “${expected}”` : null}
      </p>
    </div>
  );
}

/**
 * A destructive action behind a dialog: states the consequence, and enables the button once the expected text (a
 * connection's name) is typed exactly. One request at a time, however fast the button is pressed; a failure (or a
 * throw) is shown and keeps the dialog open, a success closes it and calls `onDone`.
 */
export function TypedConfirmDialog<Result extends { ok: true } | ActionFailure>({
  trigger,
  title,
  expected,
  confirmLabel,
  action,
  onDone,
  children,
}: {
  /** Renders what opens the dialog. */
  trigger: (open: () => void) => React.ReactNode;
  title: string;
  expected: string;
  confirmLabel: string;
  /** The server action, given the typed confirmation. */
  action: (typed: string) => Promise<Result>;
  /** What a success does next (a toast, a refresh); the dialog has closed. */
  onDone: (result: Extract<Result, { ok: true }>) => void;
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [pending, setPending] = useState(false);
  // Guards against a second submit before React has re-rendered the disabled button.
  const sending = useRef(false);
  const matches = typed === expected;
  const close = () => {
    setTyped("");
    setOpen(false);
  };
  const submit = async () => {
    if (!matches || sending.current) return;
    sending.current = true;
    setPending(true);
    try {
      const result = await callAction(() => action(typed));
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      close();
      onDone(result as Extract<Result, { ok: true }>);
    } finally {
      sending.current = false;
      setPending(false);
    }
  };
  return (
    <>
      {trigger(() => setOpen(true))}
      <Dialog open={open} onClose={close} title={title}>
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <div className="space-y-2 text-sm text-slate-700 dark:text-slate-300">{children}</div>
          <TypedConfirmField expected={expected} value={typed} onChange={setTyped} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={!matches || pending} aria-busy={pending}>
              {pending ? "Working…" : confirmLabel}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
