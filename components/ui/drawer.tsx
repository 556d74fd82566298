"use client";

import { X } from "lucide-react";
import { useId, useRef } from "react";

import { Button } from "./button";
import { useModalDialog } from "./use-modal-dialog";

/**
 * A side drawer on the platform's modal <dialog>: focus trapped, the page inert, Escape closes. `returnFocus` names
 * where focus goes on close, as the platform's own restoration finds nothing after a link opened the drawer on load,
 * and the wrong row once the reader moved through rows inside it.
 */
export function Drawer({
  open,
  onClose,
  title,
  actions,
  returnFocus,
  onKeyDown,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  /** Beside the title, before the close button (previous / next). */
  actions?: React.ReactNode;
  returnFocus?: () => HTMLElement | null | undefined;
  onKeyDown?: (event: React.KeyboardEvent<HTMLDialogElement>) => void;
  children: React.ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus on the heading, not the first button: a screen reader starts by reading what opened.
  const ref = useModalDialog(open, () => heading.current?.focus());
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={() => {
        // The platform restored focus synchronously in close(); this runs after, so it has the last word.
        returnFocus?.()?.focus();
        onClose();
      }}
      onKeyDown={onKeyDown}
      // Clicking the backdrop (the dialog box itself, outside its content) closes it, as a drawer's scrim does.
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
      className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-full max-w-none overflow-hidden bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-900/40 sm:max-w-xl dark:bg-slate-900 dark:text-slate-100 dark:ring-1 dark:ring-slate-700 dark:backdrop:bg-slate-950/70"
    >
      {open ? (
        <div className="flex h-full min-w-0 flex-col">
          <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-3 sm:px-5 dark:border-slate-800">
            <h2
              id={titleId}
              ref={heading}
              tabIndex={-1}
              className="mr-auto truncate text-base font-semibold outline-none"
            >
              {title}
            </h2>
            {actions}
            <Button variant="ghost" size="sm" onClick={() => ref.current?.close()}>
              <X aria-hidden="true" className="size-4" />
              <span className="sr-only sm:not-sr-only">Close</span>
            </Button>
          </div>
          <div className="min-w-0 flex-1 overflow-y-auto overflow-x-hidden px-4 py-4 sm:px-5">{children}</div>
        </div>
      ) : null}
    </dialog>
  );
}
