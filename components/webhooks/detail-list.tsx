/** The drawers' label/value list: two columns where there is room, stacked on a phone. */
export function DetailList({ children }: { children: React.ReactNode }) {
  return <dl className="divide-y divide-slate-100 dark:divide-slate-800">{children}</dl>;
}

export function DetailRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-x-3 gap-y-0.5 py-1.5 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
      <dt className="text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="min-w-0 wrap-anywhere text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}
