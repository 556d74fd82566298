"use client";

import { PageError } from "@/components/shell/page-error";

export default function AlertsError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Alerts" {...props} />;
}
