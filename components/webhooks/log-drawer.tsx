"use client";

import { ChevronDown, ChevronUp } from "lucide-react";

import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/drawer";

/** The look of a move button at either end of the page. */
const ends =
  "aria-disabled:cursor-not-allowed aria-disabled:text-slate-400 aria-disabled:hover:bg-white dark:aria-disabled:text-slate-500 dark:aria-disabled:hover:bg-slate-900";

/**
 * The drawer either log opens over its list: the row's detail, and moving through the rows of the page
 * with the buttons or `j` (next, older) / `k` (previous, newer), as in a mail client. Closing puts focus
 * back on the row link of the row shown last.
 */
export function LogDrawer({
  title,
  ids,
  currentId,
  onMove,
  onClose,
  rowLinkSelector,
  children,
}: {
  title: string;
  /** The page's rows, newest first. */
  ids: number[];
  /** The row shown; null closes the drawer; a value not among `ids` shows without neighbours. */
  currentId: number | "not-found" | null;
  onMove: (id: number) => void;
  onClose: () => void;
  /** The CSS selector of a row's link, given its id, to return focus to. */
  rowLinkSelector: (id: number) => string;
  children: React.ReactNode;
}) {
  const index = typeof currentId === "number" ? ids.indexOf(currentId) : -1;
  const previous = index > 0 ? ids[index - 1] : undefined;
  const next = index >= 0 && index < ids.length - 1 ? ids[index + 1] : undefined;
  return (
    <Drawer
      open={currentId !== null}
      onClose={onClose}
      title={title}
      returnFocus={() =>
        typeof currentId === "number" ? document.querySelector<HTMLElement>(rowLinkSelector(currentId)) : null
      }
      onKeyDown={(event) => {
        if (event.metaKey || event.ctrlKey || event.altKey) return;
        if ((event.target as HTMLElement).closest("input, textarea, select, [contenteditable]")) return;
        const target = event.key === "j" ? next : event.key === "k" ? previous : undefined;
        if (target === undefined) return;
        event.preventDefault();
        onMove(target);
      }}
      actions={
        <div className="flex items-center gap-1" role="group" aria-label="Move through the rows">
          {/* aria-disabled, not disabled: a button that becomes disabled under focus drops the focus out of the
              drawer. */}
          <Button
            variant="secondary"
            size="sm"
            aria-disabled={previous === undefined}
            className={ends}
            onClick={() => previous !== undefined && onMove(previous)}
            title="Previous (newer) row — key k"
          >
            <ChevronUp aria-hidden="true" className="size-4" />
            <span className="sr-only">Previous (newer)</span>
          </Button>
          <Button
            variant="secondary"
            size="sm"
            aria-disabled={next === undefined}
            className={ends}
            onClick={() => next !== undefined && onMove(next)}
            title="Next (older) row — key j"
          >
            <ChevronDown aria-hidden="true" className="size-4" />
            <span className="sr-only">Next (older)</span>
          </Button>
        </div>
      }
    >
      {children}
    </Drawer>
  );
}
