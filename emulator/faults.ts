import type { VirtualClock } from "./clock";
import type { Region } from "./seed";

export const FAULT_MODES = ["500", "429", "hang"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

interface Fault {
  mode: FaultMode;
  /** Requests still to fail; null when only a time window applies. */
  remaining: number | null;
  /** Virtual time until which the fault applies; null when only a count applies. */
  untilMs: number | null;
}

export interface TriggeredFault {
  mode: FaultMode;
  retryAfterSeconds: number;
}

/** Makes a region's API fail for the next N requests or for a window of virtual time. */
export class FaultInjector {
  private readonly faults = new Map<Region, Fault>();

  constructor(private readonly clock: VirtualClock) {}

  set(region: Region, mode: FaultMode, count?: number, seconds?: number): void {
    const remaining = count ?? (seconds === undefined ? 1 : null);
    const untilMs = seconds === undefined ? null : this.clock.now() + seconds * 1000;
    this.faults.set(region, { mode, remaining, untilMs });
  }

  clear(): void {
    this.faults.clear();
  }

  active(): Array<{ region: Region } & Fault> {
    return [...this.faults].map(([region, fault]) => ({ region, ...fault }));
  }

  /** Consumes one request's worth of the region's fault, if any applies. */
  take(region: Region): TriggeredFault | null {
    const fault = this.faults.get(region);
    if (!fault) return null;
    const nowMs = this.clock.now();
    if ((fault.untilMs !== null && nowMs >= fault.untilMs) || fault.remaining === 0) {
      this.faults.delete(region);
      return null;
    }
    if (fault.remaining !== null) fault.remaining -= 1;
    const retryAfterSeconds = fault.untilMs === null ? 1 : Math.max(1, Math.ceil((fault.untilMs - nowMs) / 1000));
    return { mode: fault.mode, retryAfterSeconds };
  }
}

/**
 * What can go wrong on the way to a tenant's receiver (the demo story's incidents): `outage`, the
 * receiver's proxy answers 503 and the console never sees the request; `bad_signature`, the service
 * signs with a key the console does not hold (a server key rotated at the service).
 */
export type DeliveryFaultMode = "outage" | "bad_signature";

/** Delivery faults per tenant, each for a window of virtual time. */
export class DeliveryFaults {
  private readonly faults = new Map<string, { mode: DeliveryFaultMode; fromMs: number; untilMs: number }>();

  constructor(private readonly clock: VirtualClock) {}

  /** From `fromMs` (virtual) for `seconds` of virtual time; replaces the tenant's earlier fault. */
  set(tenantId: string, mode: DeliveryFaultMode, fromMs: number, seconds: number): void {
    this.faults.set(tenantId, { mode, fromMs, untilMs: fromMs + seconds * 1000 });
  }

  clear(): void {
    this.faults.clear();
  }

  /** The fault that applies to a delivery attempt of this tenant's now, if any. */
  current(tenantId: string): DeliveryFaultMode | null {
    const fault = this.faults.get(tenantId);
    const nowMs = this.clock.now();
    if (!fault || nowMs < fault.fromMs) return null;
    if (nowMs >= fault.untilMs) {
      this.faults.delete(tenantId);
      return null;
    }
    return fault.mode;
  }
}
