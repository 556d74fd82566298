import type { AlertSummary } from "@/lib/alerts/types";
import type { ConnectionHealth, EmailOtpPresence } from "@/lib/overview/types";

import { ConnectionHealthCard } from "./connection-health-card";
import { healthGrid } from "./loading-shapes";

/**
 * A health card per connection, streamed in once counted. `emailOtp` (admins only) holds each
 * connection's service call, already running, so every card's line streams in on its own.
 * `openAlerts`, read by the page (null: they could not be read), decides each card's state.
 */
export async function ConnectionHealthGrid({
  health: pending,
  isAdmin,
  emailOtp,
  openAlerts: pendingAlerts,
}: {
  health: Promise<ConnectionHealth[]>;
  isAdmin: boolean;
  emailOtp?: ReadonlyMap<string, Promise<EmailOtpPresence>>;
  openAlerts: Promise<AlertSummary[] | null>;
}) {
  const [health, openAlerts] = await Promise.all([pending, pendingAlerts]);
  return (
    <div className={healthGrid}>
      {health.map((h) => (
        <ConnectionHealthCard
          key={h.id}
          health={h}
          isAdmin={isAdmin}
          emailOtp={emailOtp?.get(h.id)}
          openAlerts={openAlerts}
        />
      ))}
    </div>
  );
}
