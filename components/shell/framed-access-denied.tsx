import { ConnectionSwitcherSlot } from "@/components/connections/connection-switcher-slot";

import { AccessDenied, AccessDeniedMessage, visitor } from "./access-denied";
import { ConsoleFrame } from "./console-frame";

/**
 * The proxy's refusal of a section (app/(auth)/access-denied/, answered 403 before any layout streams): in the
 * console's frame for a signed-in visitor, on its own otherwise. Apart from access-denied.tsx, so that the root
 * app/forbidden.tsx, whose client code every route loads, carries none of the frame's.
 */
export async function FramedAccessDenied() {
  const user = await visitor();
  if (!user) return <AccessDenied />;
  return (
    <ConsoleFrame user={user} switcher={<ConnectionSwitcherSlot user={user} />}>
      <AccessDeniedMessage user={user} />
    </ConsoleFrame>
  );
}
