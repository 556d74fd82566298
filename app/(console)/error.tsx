"use client";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";

export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="max-w-xl space-y-4">
      <Alert tone="danger" title="This page could not be shown">
        Something went wrong on our side. Try again; if it keeps happening, give this reference to your administrator:{" "}
        <code>{error.digest ?? "n/a"}</code>.
      </Alert>
      <Button onClick={reset}>Try again</Button>
    </div>
  );
}
