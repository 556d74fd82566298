"use client";

import { lazy, Suspense } from "react";
import type { ExternalToast } from "sonner";

import { useHydrated } from "./use-hydrated";

/**
 * Toasts, with sonner loaded once the page is interactive, not with it: a toast only follows something the user did
 * (docs/performance.md, "Client scripts"). `toast.*` wait for the code; `<DeferredToaster>` mounts after hydration
 * (sonner shows a toast raised before its Toaster was there).
 */
const loadSonner = () => import("sonner");
type Kind = "success" | "error" | "info" | "warning";
const show = (kind: Kind) => (message: string, options?: ExternalToast) => {
  void loadSonner().then(({ toast }) => toast[kind](message, options));
};
export const toast = { success: show("success"), error: show("error"), info: show("info"), warning: show("warning") };

const Toaster = lazy(() => loadSonner().then(({ Toaster }) => ({ default: Toaster })));

export function DeferredToaster(props: React.ComponentProps<typeof Toaster>) {
  // Mounted once hydrated: the Toaster is not part of the first load.
  return useHydrated() ? (
    <Suspense fallback={null}>
      <Toaster {...props} />
    </Suspense>
  ) : null;
}
