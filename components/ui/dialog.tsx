"use client";

import { useEffect, useId, useRef } from "react";

/** Opens (showModal) and closes a <dialog> as `open` says; `onOpen` runs once it is shown. */
export function useModalDialog(open: boolean, onOpen?: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      onOpen?.();
    }
    if (!open && dialog.open) dialog.close();
    // onOpen is read when `open` changes, not a reason to reopen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  return ref;
}

/**
 * A modal on the platform's <dialog>: focus is trapped and restored, Escape closes it,
 * and the page behind is inert, with no library of our own.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: React.ReactNode;
}) {
  const ref = useModalDialog(open);
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-full max-w-lg rounded-lg bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:bg-slate-900 dark:text-slate-100 dark:ring-1 dark:ring-slate-700 dark:backdrop:bg-slate-950/70"
    >
      {open ? (
        <div className="p-6">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900 dark:text-slate-100">
            {title}
          </h2>
          <div className="mt-3">{children}</div>
        </div>
      ) : null}
    </dialog>
  );
}
