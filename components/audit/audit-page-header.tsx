import { PageHeader } from "@/components/ui/card";

/** The audit page's heading, shared with its loading state so the two cannot drift apart. */
export function AuditPageHeader() {
  return (
    <PageHeader
      title="Audit"
      description="Every change made through the console. Records are append-only: the console never edits or deletes them."
    />
  );
}
