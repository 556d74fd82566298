import { PageHeader } from "@/components/ui/card";

import { NewConnectionLink } from "./new-connection-link";

/** The connections page's heading, shared with its loading state so the two cannot drift apart. */
export function ConnectionsPageHeader() {
  return (
    <PageHeader
      title="Connections"
      description="The tenants this console administers. Keys are stored encrypted and never shown again."
      actions={<NewConnectionLink />}
    />
  );
}
