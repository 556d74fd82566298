"use client";

import NextLink, { useLinkStatus } from "next/link";
import type { ComponentProps } from "react";

import { cn } from "@/components/ui/cn";

/**
 * The console's link: next/link without prefetching. By default next/link prefetches every link on screen,
 * and in Next 16 each prefetch is two requests (the route's tree, then its dynamic part down to the loading
 * skeleton): a page view of the console sent some twenty, each a render on the server of the shell (the
 * session check, the open alerts, the connections), together about ten times the work of the page itself,
 * mostly for pages never opened. A click renders the page it opens and streams it as it comes (heading and
 * skeletons first); `LinkPending` inside a link shows that the click was taken meanwhile.
 * eslint.config.mjs keeps next/link to this file.
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
