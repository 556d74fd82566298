"use client";

import { usePathname } from "next/navigation";

import { cn } from "@/components/ui/cn";
import { Link, LinkPending } from "@/components/ui/link";
import type { NavItem } from "@/lib/auth/roles";

/**
 * The console's sections; `badges` puts something beside a section's name (the open alerts' count by
 * /alerts). A section's dot pulses from its click until its page arrives (LinkPending).
 */
export function NavLinks({
  items,
  onNavigate,
  badges,
}: {
  items: NavItem[];
  onNavigate?: (href: string) => void;
  badges?: Partial<Record<string, React.ReactNode>>;
}) {
  const pathname = usePathname();
  return (
    <ul className="space-y-1">
      {items.map((item) => {
        const active = item.href === "/" ? pathname === "/" : pathname.startsWith(item.href);
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={active ? "page" : undefined}
              onClick={() => onNavigate?.(item.href)}
              className={cn(
                "flex items-center justify-between rounded-md px-3 py-2 text-sm font-medium",
                active
                  ? "bg-indigo-50 text-indigo-800 dark:bg-indigo-400/15 dark:text-indigo-200"
                  : "text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
              )}
            >
              <span className="flex items-center gap-2">
                {item.label}
                <LinkPending />
              </span>
              {badges?.[item.href]}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
