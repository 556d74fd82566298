"use client";

import { X } from "lucide-react";
import { createContext, useCallback, useContext, useEffect, useId, useRef } from "react";

import { useModalDialog } from "./use-modal-dialog";

/** Asked before the dialog closes on Escape, its close button or a click outside: true keeps it open. */
export type CloseGuard = () => boolean;

const CloseGuardContext = createContext<(guard: CloseGuard | null) => void>(() => {});

/** Makes the surrounding Dialog ask `guard` before it closes, while `guard` is not null (a secret not yet copied). */
export function useDialogCloseGuard(guard: CloseGuard | null) {
  const setGuard = useContext(CloseGuardContext);
  useEffect(() => {
    setGuard(guard);
    return () => setGuard(null);
  }, [guard, setGuard]);
}

/**
 * A modal on the platform's <dialog>: focus is trapped and restored, the page behind is inert. Escape, its close
 * button and a click outside close it (a click outside not once a field was typed in), unless a child's close guard
 * says wait.
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
  const guard = useRef<CloseGuard | null>(null);
  const pressedOutside = useRef(false);
  // A stray click must not lose what someone typed: once a field changed, only Escape or the button close it.
  const typedIn = useRef(false);
  useEffect(() => {
    if (open) typedIn.current = false;
  }, [open]);
  const setGuard = useCallback((next: CloseGuard | null) => {
    guard.current = next;
  }, []);
  const held = () => guard.current?.() === true;
  const requestClose = () => {
    if (!held()) ref.current?.close();
  };
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      // Escape: kept from the platform while a guard holds, so no close request starts at all.
      onKeyDown={(event) => {
        if (event.key === "Escape" && held()) event.preventDefault();
      }}
      onCancel={(event) => {
        if (held()) event.preventDefault();
      }}
      // A click on the backdrop lands on the <dialog> itself; one that started inside (a text selection) does not count.
      onPointerDown={(event) => {
        pressedOutside.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget && pressedOutside.current && (guard.current || !typedIn.current))
          requestClose();
      }}
      onInput={() => {
        typedIn.current = true;
      }}
      className="m-auto w-full max-w-lg rounded-lg bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:bg-slate-900 dark:text-slate-100 dark:ring-1 dark:ring-slate-700 dark:backdrop:bg-slate-950/70"
    >
      {open ? (
        <CloseGuardContext.Provider value={setGuard}>
          <div className="relative p-6">
            <h2 id={titleId} className="pr-8 text-lg font-semibold text-slate-900 dark:text-slate-100">
              {title}
            </h2>
            <div className="mt-3">{children}</div>
            {/* Last in the tab order, so a form's first field still takes the focus when the dialog opens. */}
            <button
              type="button"
              aria-label="Dismiss"
              title="Close (Esc)"
              onClick={requestClose}
              className="absolute top-4 right-4 rounded-md p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100"
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          </div>
        </CloseGuardContext.Provider>
      ) : null}
    </dialog>
  );
}
