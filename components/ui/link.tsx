"use client";

import NextLink from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps } from "react";

/**
 * The console's link: next/link that prefetches its page when the reader reaches for it (pointer over it,
 * keyboard focus, a touch), not as soon as it is on screen. By default every link in view is prefetched:
 * each page view of the console sent some twenty prefetches (the navigation twice over, the overview's
 * cards, the log's pager), each a render on the server and JavaScript to load in the browser, a third of
 * the work of a page view, mostly for pages never opened. Reaching for a link still starts its prefetch
 * before the click lands. eslint.config.mjs keeps next/link to this file.
 */
export function Link({ href, onMouseEnter, onFocus, onTouchStart, ...props }: ComponentProps<typeof NextLink>) {
  const router = useRouter();
  const prefetch = () => {
    if (typeof href === "string" && href.startsWith("/")) router.prefetch(href);
  };
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onMouseEnter={(event) => {
        prefetch();
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        prefetch();
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        prefetch();
        onTouchStart?.(event);
      }}
    />
  );
}
