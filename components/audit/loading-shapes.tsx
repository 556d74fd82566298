import { Skeleton } from "@/components/ui/card";
import { TableSkeleton } from "@/components/ui/table";

/*
 * What the audit log paints before it is read: the filters' frame and the table's shape. No client component is
 * imported here, nor by what this imports: audit/loading.tsx imports it, and a client module reached from a
 * loading.tsx is sent again in the route's first-load JS beside the page's own copy.
 */

/** The filters form's frame (./audit-filters-form.tsx). */
export const auditFiltersLayout =
  "mb-6 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-5 lg:items-end dark:bg-slate-900 dark:ring-slate-800";

/** The audit table's columns (./audit-table.tsx). */
export const auditColumns = ["Time", "Actor", "Action", "Connection", "Target", "Outcome", "Request id"];

/** The form's frame while the page is read: its four fields and its buttons. */
export function AuditFiltersFormSkeleton() {
  return (
    <div className={auditFiltersLayout}>
      {Array.from({ length: 5 }, (_, i) => (
        <Skeleton key={i} className="h-16" />
      ))}
    </div>
  );
}

/** The table's shape while the records are read: its columns and a screenful of rows. */
export function AuditTableSkeleton() {
  return <TableSkeleton columns={auditColumns} rows={12} />;
}
