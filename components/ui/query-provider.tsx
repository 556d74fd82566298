"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";

import { makeQueryClient } from "@/lib/query-client";

/**
 * TanStack Query for a feature whose client components refetch, poll or page (ARCHITECTURE.md, rule 4):
 * mounted by that feature's layout, so it lives while the user stays in the feature and the console's
 * other pages ship without it.
 */
export function QueryProvider({ children }: { children: React.ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
