"use client";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";

/**
 * A destructive action behind a dialog: states the consequence and enables the button only once the
 * expected text (a connection's name) is typed exactly. It sends one request at a time, however fast
 * the button is pressed, and closes when `onConfirm` reports success.
 */
export function TypedConfirmDialog({
  trigger,
  title,
  expected,
  confirmLabel,
  onConfirm,
  children,
}: {
  /** Renders what opens the dialog. */
  trigger: (open: () => void) => React.ReactNode;
  title: string;
  expected: string;
  confirmLabel: string;
  /** Runs the action; resolves true to close the dialog, false to keep it open (the caller shows why). */
  onConfirm: (typed: string) => Promise<boolean>;
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [pending, setPending] = useState(false);
  // Guards against a second submit before React has re-rendered the disabled button.
  const sending = useRef(false);
  const inputId = useId();
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
      if (await onConfirm(typed)) close();
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
          <div className="space-y-2 text-sm text-slate-700">{children}</div>
          <Field id={inputId} label={`Type ${expected} to confirm`}>
            <Input id={inputId} value={typed} autoComplete="off" spellCheck={false} onChange={(e) => setTyped(e.target.value)} />
          </Field>
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
