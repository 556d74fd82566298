"use client";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";

/**
 * A destructive action's dialog: states the consequence and enables the button only once the
 * expected text (a connection's name) is typed exactly.
 */
export function TypedConfirmDialog({
  open,
  onClose,
  title,
  expected,
  confirmLabel,
  pending,
  onConfirm,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  expected: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: (typed: string) => void;
  children: React.ReactNode;
}) {
  const [typed, setTyped] = useState("");
  const inputId = useId();
  const matches = typed === expected;
  const close = () => {
    setTyped("");
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={title}>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (matches && !pending) onConfirm(typed);
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
  );
}
