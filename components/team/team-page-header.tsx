import { PageHeader } from "@/components/ui/card";

/** The team page's heading, shared with its loading state; `actions` is the add button. */
export function TeamPageHeader({ actions }: { actions?: React.ReactNode }) {
  return (
    <PageHeader
      title="Team"
      description="Everyone who may sign in to this console, how they sign in, and what they may do. Changes end the person's sessions where it matters and are recorded in the audit log."
      actions={actions}
    />
  );
}
