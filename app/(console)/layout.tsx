import { Suspense } from "react";

import { AlertBanner, OpenAlertCount } from "@/components/alerts/alert-banner";
import { OpenAlertsProvider } from "@/components/alerts/open-alerts";
import { ConnectionSwitcherSlot } from "@/components/connections/connection-switcher-slot";
import { ConsoleFrame } from "@/components/shell/console-frame";
import { Providers } from "@/components/shell/providers";
import { bannerAlert } from "@/lib/alerts/open-alerts";
import { requireUser } from "@/lib/auth/guards";

import { readOpenAlerts } from "./open-alerts";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  // Not awaited: the banner and the navigation's count stream in after the page, never holding it (a
  // Suspense without a fallback shows nothing until then); a failure to read them shows nothing either.
  const openAlerts = readOpenAlerts().then((alerts) => alerts && alerts.map(bannerAlert));
  const badges = {
    "/alerts": (
      <Suspense fallback={null}>
        <OpenAlertCount />
      </Suspense>
    ),
  };
  return (
    // A server component renders once per request: this is the instant relative times are rendered against on both
    // sides.
    // eslint-disable-next-line react-hooks/purity
    <Providers serverNow={Date.now()}>
      <OpenAlertsProvider initial={openAlerts}>
        <ConsoleFrame
          user={user}
          badges={badges}
          switcher={<ConnectionSwitcherSlot user={user} />}
          banner={
            <Suspense fallback={null}>
              <AlertBanner />
            </Suspense>
          }
        >
          {children}
        </ConsoleFrame>
      </OpenAlertsProvider>
    </Providers>
  );
}
