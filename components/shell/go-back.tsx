"use client";

import { ArrowLeft } from "lucide-react";

import { Button } from "@/components/ui/button";

/** Back to the page before, as the browser's own Back does. */
export function GoBack() {
  return (
    <Button variant="secondary" size="sm" onClick={() => window.history.back()}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Go back
    </Button>
  );
}
