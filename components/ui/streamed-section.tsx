"use client";

// catchError from its own module: "next/error" is the Pages Router's error page, which would load that page and
// next/head into every route that shows a section only to reach this export (docs/performance.md, "First-load JS").
import { catchError } from "next/dist/client/components/catch-error";
import type { ErrorInfo } from "next/error";
import { Suspense } from "react";

import { Button } from "./button";
import { Alert } from "./card";

function SectionError({ title }: { title: string }, { error, retry }: ErrorInfo) {
  const digest = (error as { digest?: string } | null)?.digest;
  return (
    <Alert tone="danger" title={`${title} could not be shown`}>
      <p>
        Something went wrong on our side; the rest of the page is unaffected.
        {digest ? (
          <>
            {" "}
            Reference for your administrator: <code>{digest}</code>.
          </>
        ) : null}
      </p>
      <Button className="mt-3" size="sm" variant="secondary" onClick={() => retry()}>
        Try again
      </Button>
    </Alert>
  );
}

const SectionErrorBoundary = catchError(SectionError);

/**
 * A section that calls the service or runs a heavy query: it streams in behind `fallback` (a skeleton of its size) and
 * fails alone, with a retry; `title` names it for screen readers. Key it by what it shows (a looked-up id), so a new
 * lookup shows the skeleton at once rather than the old answer.
 */
export function StreamedSection({
  title,
  fallback,
  children,
}: {
  title: string;
  fallback: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <SectionErrorBoundary title={title}>
      <Suspense
        fallback={
          <div aria-busy="true" data-testid="streamed-section-pending">
            <p role="status" className="sr-only">
              Loading {title.charAt(0).toLowerCase() + title.slice(1)}…
            </p>
            {fallback}
          </div>
        }
      >
        {children}
      </Suspense>
    </SectionErrorBoundary>
  );
}
