"use client";

import { PageError } from "@/components/shell/page-error";

export default function DestinationsError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Destinations" {...props} />;
}
