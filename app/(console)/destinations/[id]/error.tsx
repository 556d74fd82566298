"use client";

import { PageError } from "@/components/shell/page-error";

export default function DestinationError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Destination" {...props} />;
}
