"use client";

import type { LucideIcon } from "lucide-react";
import { Suspense, useState } from "react";
import { useForm, type DefaultValues, type FieldValues, type Path } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { callAction, type ActionFailure } from "@/lib/call-action";
import { lazyZodResolver } from "@/lib/lazy-resolver";

/** A server action's refusal, naming the field at fault when there is one. */
type Refusal<Values extends FieldValues> = ActionFailure & { field?: Path<Values> };

/**
 * An "Add …" dialog's state: its form (validated with the server's own schema, loaded on first use), the action run
 * through callAction with a refusal on its field or above the form, then what the dialog shows until closed (a
 * secret, a link): `added` says what (null closes it) and may toast; the action's path is revalidated.
 */
export function useAddDialog<Values extends FieldValues, Result extends { ok: true } | Refusal<Values>, Next>({
  schema,
  blank,
  submit,
  added,
}: {
  /** A dynamic import of the schema, e.g. `() => import("@/lib/team/schemas").then((m) => m.addTeamMemberSchema)`. */
  schema: () => Promise<z.ZodType>;
  blank: Values;
  submit: (values: Values) => Promise<Result>;
  added: (result: Extract<Result, { ok: true }>, values: Values) => Next | null;
}) {
  const [isOpen, setOpen] = useState(false);
  const [next, setNext] = useState<Next | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: lazyZodResolver<Values>(schema),
    defaultValues: blank as DefaultValues<Values>,
  });

  const close = () => {
    setOpen(false);
    setNext(null);
    setFailure(null);
    form.reset(blank);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = (await callAction(() => submit(values))) as Result | Refusal<Values>;
    if (!result.ok) {
      if (result.field) form.setError(result.field, { message: result.error }, { shouldFocus: true });
      else setFailure(result.error);
      return;
    }
    const shown = added(result as Extract<Result, { ok: true }>, values);
    if (shown === null) close();
    else setNext(shown);
  });

  return { isOpen, show: () => setOpen(true), close, next, failure, form, onSubmit };
}

export type AddDialogState<Values extends FieldValues, Next> = ReturnType<
  typeof useAddDialog<Values, { ok: true }, Next>
>;

/**
 * The button that opens an "Add …" dialog, and the dialog: the form (`intro`, the refusal, the fields,
 * Cancel and the submit button), or once added what `shown` renders.
 */
export function AddDialog<Values extends FieldValues, Next>({
  dialog,
  trigger,
  title,
  shown,
  submitLabel,
  intro,
  children,
}: {
  dialog: AddDialogState<Values, Next>;
  /** `preload` starts loading fields that load on demand (onDemand in on-demand.tsx) as the button is neared. */
  trigger: { label: string; icon: LucideIcon; disabled?: boolean; title?: string; preload?: () => void };
  /** The dialog's title, and the form's name. */
  title: string;
  /** What the dialog shows once added, with its title. */
  shown: (next: Next) => { title: string; view: React.ReactNode };
  submitLabel: string;
  intro?: React.ReactNode;
  /** The form's fields; while fields loaded on demand are on their way, the dialog says it is loading. */
  children: React.ReactNode;
}) {
  const { isSubmitting } = dialog.form.formState;
  const after = dialog.next === null ? null : shown(dialog.next);
  const Icon = trigger.icon;
  return (
    <>
      <Button
        onClick={dialog.show}
        onPointerEnter={trigger.preload}
        onFocus={trigger.preload}
        disabled={trigger.disabled}
        title={trigger.title}
      >
        <Icon aria-hidden="true" className="size-4" />
        {trigger.label}
      </Button>
      <Dialog open={dialog.isOpen} onClose={dialog.close} title={after ? after.title : title}>
        {after ? (
          after.view
        ) : (
          <Suspense
            fallback={
              <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
                Loading the form…
              </p>
            }
          >
            <form onSubmit={dialog.onSubmit} noValidate className="space-y-4" aria-label={title}>
              {intro}
              {dialog.failure ? <Alert tone="danger">{dialog.failure}</Alert> : null}
              {children}
              <div className="flex justify-end gap-2">
                <Button variant="secondary" onClick={dialog.close} disabled={isSubmitting}>
                  Cancel
                </Button>
                <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
                  {isSubmitting ? "Adding…" : submitLabel}
                </Button>
              </div>
            </form>
          </Suspense>
        )}
      </Dialog>
    </>
  );
}
