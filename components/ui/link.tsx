"use client";

import NextLink, { useLinkStatus } from "next/link";
import type { ComponentProps } from "react";

import { cn } from "@/components/ui/cn";

/**
 * The console's link: next/link without prefetching, whose prefetches of every link on screen each rendered the
 * shell on the server, for pages mostly never opened (ARCHITECTURE.md, rule 6). eslint.config.mjs keeps next/link
 * to this file.
 */
export function Link(props: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={false} {...props} />;
}

/** Inside a Link: a small pulsing dot while the page the link opens is on its way (useLinkStatus). */
export function LinkPending() {
  const { pending } = useLinkStatus();
  return (
    <span
      aria-hidden="true"
      data-pending={pending || undefined}
      className={cn(
        "size-1.5 shrink-0 rounded-full bg-current transition-opacity",
        pending ? "animate-pulse opacity-70" : "opacity-0",
      )}
    />
  );
}
