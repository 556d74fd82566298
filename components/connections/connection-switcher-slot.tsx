import "server-only";

import { ConnectionSwitcher } from "@/components/shell/connection-switcher";
import type { SessionUser } from "@/lib/auth/guards";
import { getSelectedConnection, isAllConnectionsChosen } from "@/lib/connections/current";
import { listConnectionChoices } from "@/lib/connections/repository";

/** Loads what the header's switcher offers: names and regions only, never keys. */
export async function ConnectionSwitcherSlot({ user }: { user: SessionUser }) {
  const [choices, selected, allChosen] = await Promise.all([
    listConnectionChoices(),
    getSelectedConnection(),
    isAllConnectionsChosen(),
  ]);
  return (
    <ConnectionSwitcher
      choices={choices}
      selectedId={selected?.id ?? null}
      allChosen={allChosen}
      canAdd={user.role === "admin"}
    />
  );
}
