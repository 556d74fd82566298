import { TableSkeleton } from "@/components/ui/table";

/*
 * The connections list's shape before it is read. No client component is imported here: connections/loading.tsx
 * imports it, and a client module reached from a loading.tsx is sent again in first-load JS beside the page's copy.
 */

/** The connections table's columns (./connection-table.tsx). */
export const connectionColumns = ["Name", "Region", "Key check", "Management key", "Server key", "Updated"];

/** The table's shape while the connections are read: its columns and a few rows. */
export function ConnectionTableSkeleton() {
  return <TableSkeleton columns={connectionColumns} rows={3} />;
}
