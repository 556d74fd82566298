import { PageHeader } from "@/components/ui/card";

/** The Alerts page's heading, shared with its loading state so the two cannot drift apart. */
export function AlertsPageHeader() {
  return (
    <PageHeader
      title="Alerts"
      description="What the console found wrong with a connection, checked continuously. An open alert shows on every page until it resolves on its own. Acknowledging one says someone is on it; muting one silences it for a while."
    />
  );
}
