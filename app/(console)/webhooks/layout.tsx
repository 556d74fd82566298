import { QueryProvider } from "@/components/ui/query-provider";

/** The log pages, follows live and opens events with TanStack Query; only this feature loads it. */
export default function WebhooksLayout({ children }: { children: React.ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
