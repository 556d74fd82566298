"use client";
import { QueryClientProvider } from "@tanstack/react-query";
import { useTheme } from "next-themes";
import { useState } from "react";
import { Toaster } from "sonner";
import { NowProvider } from "@/components/ui/now";
import { makeQueryClient } from "@/lib/query-client";

/** `serverNow`: the instant the layout rendered, so relative times hydrate to the text the server sent. */
export function Providers({ children, serverNow }: { children: React.ReactNode; serverNow: number }) {
  const [queryClient] = useState(makeQueryClient);
  // Toasts in the page's theme (before hydration, and so on the server, sonner's own default: light).
  const { resolvedTheme } = useTheme();
  return (
    <QueryClientProvider client={queryClient}>
      <NowProvider serverNow={serverNow}>{children}</NowProvider>
      <Toaster richColors closeButton position="top-right" theme={resolvedTheme === "dark" ? "dark" : "light"} />
    </QueryClientProvider>
  );
}
