"use client";

import { Menu, X } from "lucide-react";
import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";

import { useHydrated } from "@/components/ui/use-hydrated";
import type { NavItem } from "@/lib/auth/roles";

import { NavLinks } from "./nav-links";

/**
 * The phone menu: a panel of the console's pages and who is signed in. Escape (focus back to the button) or a tap
 * outside closes it; a navigation closes it once the page arrives, never covering the page it opened, and until
 * then the picked page's dot shows that the tap was taken.
 */
export function MobileNav({
  items,
  badges,
  children,
}: {
  items: NavItem[];
  badges?: Partial<Record<string, React.ReactNode>>;
  children?: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const pathname = usePathname();
  // Served as HTML first: until hydrated, a tap would open nothing.
  const hydrated = useHydrated();

  // Any navigation closes it (a link in the panel, the browser's back button). Adjusting state while
  // rendering (React's "storing information from previous renders") avoids an effect's extra paint.
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    // Focus leaving the menu (Tab past its last link) closes it too.
    const onFocusIn = (event: FocusEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("focusin", onFocusIn);
    };
  }, [open]);

  const Icon = open ? X : Menu;
  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        disabled={!hydrated}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 dark:text-slate-100 dark:ring-slate-600 dark:hover:bg-slate-800"
      >
        <Icon aria-hidden="true" className="size-5" />
        Menu
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute left-0 z-30 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-md bg-white p-2 shadow-lg ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700"
      >
        {/* The page the menu is on closes it at once: no navigation will. */}
        <NavLinks items={items} badges={badges} onNavigate={(href) => href === pathname && setOpen(false)} />
        {children}
      </div>
    </div>
  );
}
