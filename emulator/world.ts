import { TokenIssuer } from "./auth";
import { VirtualClock } from "./clock";
import { FaultInjector } from "./faults";
import type { ParsedSeed } from "./seed";
import { ServiceState } from "./state";
import { WebhookDeliveries } from "./webhook-deliveries";
import { buildExpiredEvent } from "./webhook-event";

export interface WorldOptions {
  webhookTimeoutMs: number;
}

/** Everything the emulator holds; `reset()` returns it to the seed with the clock offset at 0. */
export class EmulatorWorld {
  readonly clock = new VirtualClock();
  readonly tokens = new TokenIssuer();
  state!: ServiceState;
  deliveries!: WebhookDeliveries;
  faults!: FaultInjector;

  constructor(
    private readonly seed: ParsedSeed,
    private readonly options: WorldOptions,
  ) {
    this.reset();
  }

  reset(): void {
    this.clock.reset();
    const state = new ServiceState(this.seed, this.clock);
    this.state = state;
    this.faults = new FaultInjector(this.clock);
    this.deliveries = new WebhookDeliveries({
      clock: this.clock,
      signingKeys: (tenantId) => state.tenantById(tenantId)?.serverSecretKeys ?? [],
      timeoutMs: this.options.webhookTimeoutMs,
    });
  }

  /**
   * Sweeps expired authenticators into `authenticator.expired` events (one per expiry; none for a
   * tenant without a webhook URL) and attempts every delivery that is due.
   */
  async runDueWork(): Promise<void> {
    const { state, deliveries, clock } = this;
    for (const expired of state.removeExpiredAuthenticators()) {
      const { tenant, authenticator } = expired;
      if (!tenant.webhookUrl) continue;
      const dueAtMs = (authenticator.expiresAtMs ?? clock.now()) + tenant.webhookDelaySeconds * 1000;
      deliveries.enqueue(buildExpiredEvent(expired, clock.nowIso()), tenant.webhookUrl, dueAtMs);
    }
    await deliveries.deliverDue();
  }
}
