"use client";

import { PageError } from "@/components/shell/page-error";

export default function TokensError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="API tokens" {...props} />;
}
