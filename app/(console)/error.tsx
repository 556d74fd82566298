"use client";

import { PageError } from "@/components/shell/page-error";

export default function ConsoleError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Something went wrong" {...props} />;
}
