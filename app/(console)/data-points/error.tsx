"use client";

import { PageError } from "@/components/shell/page-error";

export default function DataPointsError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Data points" {...props} />;
}
