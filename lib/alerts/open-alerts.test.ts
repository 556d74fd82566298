import { describe, expect, it } from "vitest";

import { bannerAlert, connectionAlerts } from "./open-alerts";
import type { AlertSummary } from "./types";

/** Acknowledged alerts are counted apart from those that still need someone, everywhere the alerts are shown. */
const alert = (id: string, connectionId: string, acknowledgedAt: string | null = null) =>
  ({
    id,
    kind: "bad_signatures",
    connection: { id: connectionId, name: connectionId.toUpperCase(), region: "eu" },
    acknowledgedAt,
  }) as AlertSummary;

describe("alerts parted by whether they need someone", () => {
  it("parts one connection's open alerts into those that need someone and those acknowledged", () => {
    const alerts = [alert("1", "a"), alert("2", "a", "2026-12-01T00:00:00.000Z"), alert("3", "b")];
    const parted = connectionAlerts(alerts, "a");
    expect(parted.open.map((a) => a.id)).toEqual(["1"]);
    expect(parted.acknowledged.map((a) => a.id)).toEqual(["2"]);
    expect(connectionAlerts(alerts, "c")).toEqual({ open: [], acknowledged: [] });
  });

  it("tells the banner and the navigation's count which alerts are acknowledged", () => {
    expect(bannerAlert(alert("1", "a"))).toEqual({ kind: "bad_signatures", connectionName: "A", acknowledged: false });
    expect(bannerAlert(alert("2", "a", "2026-12-01T00:00:00.000Z")).acknowledged).toBe(true);
  });
});
