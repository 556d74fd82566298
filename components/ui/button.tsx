"use client";

import { forwardRef, type ButtonHTMLAttributes } from "react";

import { Link } from "@/components/ui/link";

import { cn } from "./cn";
import { useHydrated } from "./use-hydrated";

const variants = {
  // White on indigo-600 / red-600 passes AA in both themes; a lighter hover in dark would not.
  primary:
    "bg-indigo-600 text-white hover:bg-indigo-700 disabled:bg-indigo-300 dark:disabled:bg-indigo-900 dark:disabled:text-indigo-300",
  secondary:
    "bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-400 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600 dark:hover:bg-slate-700 dark:disabled:text-slate-500",
  danger:
    "bg-red-600 text-white hover:bg-red-700 disabled:bg-red-300 dark:disabled:bg-red-950 dark:disabled:text-red-300",
  ghost:
    "text-slate-700 hover:bg-slate-100 disabled:text-slate-400 dark:text-slate-300 dark:hover:bg-slate-800 dark:disabled:text-slate-500",
} as const;

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: keyof typeof variants;
  size?: "sm" | "md";
  /**
   * Disabled until hydrated (a click before would be lost): the default with an onClick; a script-handled form's
   * submit sets it, a GET filter form's does not. Why: docs/development.md, "Nothing the page's script runs".
   */
  untilHydrated?: boolean;
};

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = "primary", size = "md", className, type = "button", untilHydrated, disabled, ...props },
  ref,
) {
  const hydrated = useHydrated();
  const waiting = !hydrated && (untilHydrated ?? props.onClick !== undefined);
  return (
    <button
      ref={ref}
      type={type}
      disabled={disabled || waiting}
      className={cn(
        "inline-flex items-center justify-center gap-2 rounded-md font-medium shadow-sm transition-colors disabled:cursor-not-allowed",
        size === "sm" ? "px-2.5 py-1.5 text-sm" : "px-3.5 py-2 text-sm",
        variants[variant],
        className,
      )}
      {...props}
    />
  );
});

/** A GET filter form's two buttons: apply the filters, and clear them (the page's plain link). */
export function FilterButtons({ clearHref }: { clearHref: string }) {
  return (
    <div className="flex gap-2">
      <Button type="submit">Filter</Button>
      <Link
        href={clearHref}
        className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        Clear
      </Link>
    </div>
  );
}
