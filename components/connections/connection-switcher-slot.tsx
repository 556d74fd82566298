import "server-only";

import { ConnectionSwitcher } from "@/components/shell/connection-switcher";
import type { SessionUser } from "@/lib/auth/guards";
import { getSelectedConnection } from "@/lib/connections/current";
import { listConnectionChoices } from "@/lib/connections/repository";

/** Loads what the header's switcher offers: names and regions only, never keys. */
export async function ConnectionSwitcherSlot({ user }: { user: SessionUser }) {
  const [choices, selected] = await Promise.all([listConnectionChoices(), getSelectedConnection()]);
  return <ConnectionSwitcher choices={choices} selectedId={selected?.id ?? null} canAdd={user.role === "admin"} />;
}
