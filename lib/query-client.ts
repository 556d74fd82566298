import { QueryClient } from "@tanstack/react-query";

/**
 * The one QueryClient factory, used by the browser's provider (components/ui/query-provider.tsx). Pages fetch on
 * the server and hand the first data to a client component as `useQuery`'s `initialData` (ARCHITECTURE.md, rule
 * 4); nothing prefetches into a server-side client.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: 1 },
    },
  });
}
