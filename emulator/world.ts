import { TokenIssuer } from "./auth";
import { VirtualClock } from "./clock";
import { DeliveryFaults, FaultInjector } from "./faults";
import type { ParsedSeed } from "./seed";
import { ServiceState } from "./state";
import { DemoStory, type StoryOptions } from "./story";
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
  deliveryFaults!: DeliveryFaults;
  /** The demo story (story.ts), when started; a reset stops it. */
  story: DemoStory | null = null;

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
    const deliveryFaults = new DeliveryFaults(this.clock);
    this.deliveryFaults = deliveryFaults;
    this.deliveries = new WebhookDeliveries({
      clock: this.clock,
      signingKeys: (tenantId) => state.tenantById(tenantId)?.serverSecretKeys ?? [],
      timeoutMs: this.options.webhookTimeoutMs,
      deliveryFault: (tenantId) => deliveryFaults.current(tenantId),
    });
    this.story = null;
  }

  /** Starts the demo story now, over every tenant (a running one is replaced). */
  startStory(options: StoryOptions = {}): DemoStory {
    this.story = DemoStory.start(this.state, this.deliveryFaults, this.clock.now(), options);
    return this.story;
  }

  /** Stops the story and ends the delivery faults it injected. */
  stopStory(): void {
    this.story = null;
    this.deliveryFaults.clear();
  }

  /**
   * Sweeps expired authenticators into `authenticator.expired` events (one per expiry; none for a
   * tenant without a webhook URL) and attempts every delivery that is due.
   */
  async runDueWork(): Promise<void> {
    const { state, deliveries, clock } = this;
    this.story?.play(clock.now());
    for (const expired of state.removeExpiredAuthenticators()) {
      const { tenant, authenticator } = expired;
      if (!tenant.webhookUrl) continue;
      const dueAtMs = (authenticator.expiresAtMs ?? clock.now()) + tenant.webhookDelaySeconds * 1000;
      deliveries.enqueue(buildExpiredEvent(expired, clock.nowIso()), tenant.webhookUrl, dueAtMs);
    }
    await deliveries.deliverDue();
  }
}
