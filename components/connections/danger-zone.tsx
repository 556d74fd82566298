import { Card } from "@/components/ui/card";
import type { Region } from "@/lib/service/regions";

import { DeleteConnection } from "./delete-connection";

/** The connection page's irreversible action, set apart from the settings it sits under. */
export function DangerZone({ connection }: { connection: { id: string; name: string; region: Region } }) {
  return (
    <Card className="ring-red-200 dark:ring-red-900/70">
      <h2 className="text-base font-semibold">Danger zone</h2>
      <p className="mt-1 mb-4 text-sm text-slate-600 dark:text-slate-400">
        Deleting the connection removes its keys, watch list and webhook history from the console. The tenant itself is
        not changed.
      </p>
      <DeleteConnection id={connection.id} name={connection.name} region={connection.region} />
    </Card>
  );
}
