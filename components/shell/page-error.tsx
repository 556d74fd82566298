"use client";

import { Button } from "@/components/ui/button";
import { Alert, PageHeader } from "@/components/ui/card";

/** What a feature's error.tsx shows: the page's own heading, what happened, and a retry that re-fetches. */
export function PageError({
  title,
  error,
  retry,
}: {
  title: string;
  error: Error & { digest?: string };
  retry: () => void;
}) {
  return (
    <>
      <PageHeader title={title} />
      <div className="max-w-xl space-y-4">
        <Alert tone="danger" title="This page could not be shown">
          Something went wrong on our side. Try again; if it keeps happening, give this reference to your administrator:{" "}
          <code>{error.digest ?? "n/a"}</code>.
        </Alert>
        <Button onClick={() => retry()}>Try again</Button>
      </div>
    </>
  );
}
