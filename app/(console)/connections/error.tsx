"use client";

import { PageError } from "@/components/shell/page-error";

export default function ConnectionsError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Connections" {...props} />;
}
