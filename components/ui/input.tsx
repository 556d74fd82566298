import { forwardRef, type InputHTMLAttributes, type SelectHTMLAttributes } from "react";

import { Skeleton } from "./card";
import { cn } from "./cn";

const fieldClass =
  // The field's edge (slate-500) keeps 3:1 against the card and the page in both themes.
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-500 placeholder:text-slate-500 focus:ring-2 focus:ring-indigo-600 aria-[invalid=true]:ring-red-600 " +
  "dark:bg-slate-950 dark:text-slate-100 dark:ring-slate-500 dark:placeholder:text-slate-400 dark:focus:ring-indigo-400 dark:aria-[invalid=true]:ring-red-400";

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  return <input ref={ref} className={cn(fieldClass, className)} {...props} />;
});

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select(
  { className, ...props },
  ref,
) {
  return <select ref={ref} className={cn(fieldClass, "pr-8", className)} {...props} />;
});

/** The id and ARIA wiring of the control inside a Field: invalid and described by its error, else by its hint. */
export function fieldControlProps(id: string, error: string | undefined, hasHint = false) {
  return {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : hasHint ? `${id}-hint` : undefined,
  };
}

/** A labelled form field with its hint and its error, wired for screen readers (see fieldControlProps). */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: React.ReactNode;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled field's shape for a loading state: its label, its box and, with `hint`, a hint's two lines. */
export function FieldSkeleton({ hint = false, className }: { hint?: boolean; className?: string }) {
  return (
    <div className={cn("space-y-1.5", className)}>
      <Skeleton className="h-5 w-32" />
      <Skeleton className="h-9 w-full" />
      {hint ? <Skeleton className="h-8 w-full" /> : null}
    </div>
  );
}
