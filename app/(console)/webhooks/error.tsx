"use client";

import { PageError } from "@/components/shell/page-error";

export default function WebhooksError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Webhooks" {...props} />;
}
