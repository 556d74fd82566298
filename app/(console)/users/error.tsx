"use client";

import { PageError } from "@/components/shell/page-error";

export default function UsersError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <PageError title="Users" {...props} />;
}
