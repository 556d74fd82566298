"use client";

import { useEffect, useRef } from "react";

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
