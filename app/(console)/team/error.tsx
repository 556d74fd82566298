"use client";

import { PageError } from "@/components/shell/page-error";

export default function TeamError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Team" {...props} />;
}
