import type { VirtualClock } from "./clock";
import type { DeliveryFaultMode } from "./faults";
import { signatureHeader, type WebhookEvent } from "./webhook-event";

export const MAX_ATTEMPTS = 4; // the first one plus up to 3 retries
export const RETRY_SPACING_MS = 30_000;

export interface DeliveryAttempt {
  eventId: string;
  tenantId: string;
  attempt: number;
  url: string;
  /** Virtual time at which the attempt started. */
  sentAt: string;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: string | null;
}

interface PendingDelivery {
  event: WebhookEvent;
  url: string;
  attemptsMade: number;
  dueAtMs: number;
  inFlight: Promise<void> | null;
}

type Outcome = { statusCode: number; error?: string } | { error: string };

async function post(url: string, body: string, signature: string, timeoutMs: number): Promise<Outcome> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Signature-V2": signature },
      body,
      // A redirect is the receiver's answer, not a new destination: a 3xx is a failed attempt.
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return { statusCode: response.status };
  } catch (error) {
    const err = error as Error & { cause?: { code?: string } };
    if (err.name === "TimeoutError") return { error: `timeout after ${timeoutMs} ms` };
    return { error: err.cause?.code ?? err.message };
  }
}

export interface WebhookDeliveryOptions {
  clock: VirtualClock;
  /** The tenant's server secret keys at the moment of the attempt. */
  signingKeys: (tenantId: string) => readonly string[];
  timeoutMs: number;
  /** A fault injected into this tenant's deliveries now (faults.ts), if any. */
  deliveryFault?: (tenantId: string) => DeliveryFaultMode | null;
}

/** Not one of the tenant's keys: what a delivery is signed with while a `bad_signature` fault applies. */
const ROTATED_AWAY_KEY = "emulator_key_the_console_does_not_hold";
/** What an attempt during an `outage` fault records: no request leaves, as if the receiver's proxy said 503. */
const OUTAGE: Outcome = { statusCode: 503, error: "receiver outage (injected fault): no request was sent" };

/** Sends events when due, retries failures with spacing on the virtual clock, records every attempt. */
export class WebhookDeliveries {
  private readonly pending: PendingDelivery[] = [];
  private readonly recorded: DeliveryAttempt[] = [];

  constructor(private readonly options: WebhookDeliveryOptions) {}

  enqueue(event: WebhookEvent, url: string, dueAtMs: number): void {
    this.pending.push({ event, url, attemptsMade: 0, dueAtMs, inFlight: null });
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  attempts(filter: { tenantId?: string; eventId?: string } = {}): DeliveryAttempt[] {
    return this.recorded
      .filter(
        (a) =>
          (!filter.tenantId || a.tenantId === filter.tenantId) && (!filter.eventId || a.eventId === filter.eventId),
      )
      .sort((a, b) => a.sentAt.localeCompare(b.sentAt) || a.attempt - b.attempt);
  }

  /** Starts every due attempt (never one twice at once) and waits for all due or in-flight ones. */
  async deliverDue(): Promise<void> {
    const nowMs = this.options.clock.now();
    const waits = this.pending
      .filter((delivery) => delivery.inFlight || delivery.dueAtMs <= nowMs)
      .map((delivery) => {
        delivery.inFlight ??= this.attempt(delivery).finally(() => {
          delivery.inFlight = null;
        });
        return delivery.inFlight;
      });
    await Promise.all(waits);
  }

  private async attempt(delivery: PendingDelivery): Promise<void> {
    const { clock, signingKeys, timeoutMs, deliveryFault } = this.options;
    const attempt = delivery.attemptsMade + 1;
    const sentAtMs = clock.now();
    const fault = deliveryFault?.(delivery.event.tenantId) ?? null;
    const keys = fault === "bad_signature" ? [ROTATED_AWAY_KEY] : signingKeys(delivery.event.tenantId);
    // Signed with wall-clock seconds: receivers check a 5-minute tolerance against their own clock.
    const signature = signatureHeader(delivery.event.body, Math.floor(Date.now() / 1000), keys);
    const outcome = fault === "outage" ? OUTAGE : await post(delivery.url, delivery.event.body, signature, timeoutMs);
    delivery.attemptsMade = attempt;
    const succeeded = "statusCode" in outcome && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const retry = !succeeded && attempt < MAX_ATTEMPTS;
    delivery.dueAtMs = sentAtMs + RETRY_SPACING_MS;
    if (!retry) this.pending.splice(this.pending.indexOf(delivery), 1);
    this.recorded.push({
      eventId: delivery.event.id,
      tenantId: delivery.event.tenantId,
      attempt,
      url: delivery.url,
      sentAt: new Date(sentAtMs).toISOString(),
      statusCode: "statusCode" in outcome ? outcome.statusCode : null,
      error: outcome.error ?? null,
      nextAttemptAt: retry ? new Date(delivery.dueAtMs).toISOString() : null,
    });
  }
}
