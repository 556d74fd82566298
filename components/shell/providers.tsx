"use client";

import { useTheme } from "next-themes";

import { NowProvider } from "@/components/ui/now";
import { DeferredToaster } from "@/components/ui/toast";

/** `serverNow`: the instant the layout rendered, so relative times hydrate to the text the server sent. */
export function Providers({ children, serverNow }: { children: React.ReactNode; serverNow: number }) {
  // Toasts in the page's theme (mounted after hydration, when the theme is known), bottom right: clear of the
  // header's controls; on a phone sonner spans the width above the bottom edge.
  const { resolvedTheme } = useTheme();
  return (
    <>
      <NowProvider serverNow={serverNow}>{children}</NowProvider>
      <DeferredToaster
        richColors
        closeButton
        position="bottom-right"
        theme={resolvedTheme === "dark" ? "dark" : "light"}
      />
    </>
  );
}
