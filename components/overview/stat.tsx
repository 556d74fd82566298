import { Card, Skeleton } from "@/components/ui/card";
import { Link } from "@/components/ui/link";

/** One number on the overview, linking to the page that explains it. */
export function Stat({
  label,
  value,
  href,
  children,
}: {
  label: string;
  value: number;
  href: string;
  children?: React.ReactNode;
}) {
  return (
    <Card>
      <p className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</p>
      <p className="mt-1 text-3xl font-semibold tabular-nums text-slate-900 dark:text-slate-100">
        <Link href={href} className="hover:text-indigo-700 dark:hover:text-indigo-300">
          {value.toLocaleString("en")}
        </Link>
      </p>
      {children ? <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">{children}</p> : null}
    </Card>
  );
}

/** A stat's shape while its number is counted: the label, the number and the note line. */
export function StatSkeleton() {
  return (
    <Card>
      <Skeleton className="h-5 w-40" />
      <Skeleton className="mt-1 h-9 w-20" />
      <Skeleton className="mt-1 h-4 w-48" />
    </Card>
  );
}
