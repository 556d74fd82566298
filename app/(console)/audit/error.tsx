"use client";

import { PageError } from "@/components/shell/page-error";

export default function AuditError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Audit" {...props} />;
}
