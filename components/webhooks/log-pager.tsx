import { Link } from "@/components/ui/link";

const pagerLink =
  "rounded-md px-2.5 py-1.5 font-medium text-indigo-700 dark:text-indigo-300 ring-1 ring-slate-300 ring-inset hover:bg-slate-50";

/**
 * Paging by keyset cursors (lib/webhooks/cursor.ts): Newest goes back to the top, Newer reads the rows
 * above this page, Older the rows below. `href(cursor)` builds the link, with the view's filters.
 */
export function LogPager({
  onFirstPage,
  newerCursor,
  olderCursor,
  href,
}: {
  onFirstPage: boolean;
  newerCursor: string | null;
  olderCursor: string | null;
  href: (cursor: string | null) => string;
}) {
  if (onFirstPage && !olderCursor) return null;
  return (
    <nav aria-label="Pages" className="mt-3 flex flex-wrap gap-2 text-sm">
      {onFirstPage ? null : (
        <Link className={pagerLink} href={href(null)}>
          « Newest
        </Link>
      )}
      {newerCursor ? (
        <Link className={pagerLink} href={href(newerCursor)} rel="prev">
          ← Newer
        </Link>
      ) : null}
      {olderCursor ? (
        <Link className={pagerLink} href={href(olderCursor)} rel="next">
          Older →
        </Link>
      ) : null}
    </nav>
  );
}
