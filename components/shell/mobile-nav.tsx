"use client";
import { useRef } from "react";
import type { NavItem } from "@/lib/auth/roles";
import { NavLinks } from "./nav-links";

/** The phone menu. It closes once a page is picked, so it never covers the page it opened. */
export function MobileNav({ items, children }: { items: NavItem[]; children?: React.ReactNode }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => {
    if (menu.current) menu.current.open = false;
  };
  return (
    <details ref={menu}>
      <summary className="cursor-pointer text-sm font-medium">Menu</summary>
      <div className="absolute z-20 mt-2 w-56 rounded-md bg-white p-2 shadow-lg ring-1 ring-slate-200">
        <NavLinks items={items} onNavigate={close} />
        {children}
      </div>
    </details>
  );
}
