import { QueryClient } from "@tanstack/react-query";

/** The one QueryClient factory, for the browser provider and for server-side prefetching. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: 1 },
    },
  });
}
