"use client";

import { cn } from "@/components/ui/cn";

/**
 * A log row's one way in: a real link (Tab, Enter, a middle click for a new tab) whose ::after stretches over its
 * `relative` row, so a click anywhere lands on it; a titled cell sits above the stretch (`relative z-10`) and the
 * row's onClick catches clicks there. A plain click opens in place (no navigation).
 */
export function RowLink({
  href,
  selected,
  onOpen,
  title,
  className,
  children,
  ...data
}: {
  href: string;
  selected: boolean;
  onOpen: () => void;
  title?: string;
  className?: string;
  children: React.ReactNode;
} & { [key: `data-${string}`]: string | number }) {
  return (
    <a
      href={href}
      title={title}
      aria-current={selected ? "true" : undefined}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
        event.preventDefault();
        event.stopPropagation();
        onOpen();
      }}
      className={cn(
        "block truncate font-medium text-slate-900 dark:text-slate-100 outline-none after:absolute after:inset-0 after:content-[''] hover:underline",
        "focus-visible:whitespace-normal focus-visible:break-all focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-indigo-600",
        className,
      )}
      {...data}
    >
      {children}
    </a>
  );
}

/** The row around a RowLink: the stretch's containing block, and hover and selected colours that keep AA contrast. */
export function rowClassName(selected: boolean): string {
  return cn(
    "relative cursor-pointer",
    selected ? "bg-indigo-50 dark:bg-indigo-950" : "hover:bg-slate-50 dark:hover:bg-slate-800/60",
  );
}

/** A click on the row outside its link (on a titled cell above the stretch) opens it too, unless it selected text. */
export function openOnRowClick(onOpen: () => void) {
  return (event: React.MouseEvent) => {
    if ((event.target as HTMLElement).closest("a, button")) return;
    if (window.getSelection()?.toString()) return;
    onOpen();
  };
}

/** The `?name=id` link a row opens, keeping the view's other parameters. */
export function rowHref(query: string, name: string, id: number): string {
  const params = new URLSearchParams(query);
  params.set(name, String(id));
  return `/webhooks?${params.toString()}`;
}
