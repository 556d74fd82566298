import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";

import { forwardAttempts } from "@/lib/db/forwarding-schema";
import { beginDraining } from "@/lib/lifecycle";
import { scrapeMetrics } from "@/lib/metrics/metrics";
import { forgetProcessSingleton } from "@/lib/process-singleton";
import { scaled } from "@/lib/testing/timeouts";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { deliveriesOf, destinationsTo, LOCAL_POLICY, receiveEvent, setUpForwardingFile } from "./test-helpers";
import { drainWorkers, newWorkers, startWorkers } from "./worker";

// A worker's part of a graceful stop (drainWorkers): what ends within the grace period is recorded, what cannot is
// aborted a second before the deadline and given back, so another worker (a second startWorkers here, standing for
// another instance) sends it at once rather than after its lease.

const bed = setUpForwardingFile();
const instances: Array<ReturnType<typeof startWorkers>> = [];
const startInstance = () => {
  const instance = startWorkers(newWorkers(() => LOCAL_POLICY));
  instances.push(instance);
  return instance;
};
afterEach(async () => {
  forgetProcessSingleton("lifecycle");
  await Promise.all(instances.splice(0).map((instance) => drainWorkers(instance, Date.now() + 1_000)));
});

/** A destination to the test's receiver, an event forwarded to it by a worker, and the worker once its POST arrived. */
async function forwardOneInFlight() {
  const { connection, ids } = await destinationsTo(bed.receiver.url, ["Orders"]);
  const destinationId = ids[0]!;
  const event = await receiveEvent(connection.token, [KEY1]);
  const instance = startInstance();
  instance.wake();
  await vi.waitFor(() => expect(bed.receiver.received).toHaveLength(1), { timeout: scaled(5_000) });
  return { destinationId, event, instance };
}

const attemptsTo = (destinationId: string) =>
  bed.db.select().from(forwardAttempts).where(eq(forwardAttempts.destinationId, destinationId));

describe("a stop during forwards", () => {
  it("lets an attempt that ends within the grace period finish, and records it once", async () => {
    bed.receiver.answerAfter(1_000);
    const { destinationId, instance } = await forwardOneInFlight();
    const started = Date.now();
    await drainWorkers(instance, started + 5_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(await attemptsTo(destinationId)).toMatchObject([{ ok: true, status: 200 }]);
    expect(await deliveriesOf(destinationId)).toMatchObject([{ state: "delivered", attempts: 1, leasedUntil: null }]);
    expect(bed.receiver.received).toHaveLength(1);
  });

  it("aborts an attempt that cannot end a second before the deadline, records nothing of it, and another worker sends it at once", async () => {
    bed.receiver.answerAfter(Infinity);
    const { destinationId, instance } = await forwardOneInFlight();
    // Its POST hangs for good; the next one is answered. The other instance, running before the stop: the delivery
    // is leased, so it takes nothing yet.
    bed.receiver.answerAfter(0);
    startInstance();
    const deadline = Date.now() + 2_000;
    await drainWorkers(instance, deadline);
    const drained = Date.now();
    expect(drained).toBeGreaterThanOrEqual(deadline - 1_100);
    expect(drained).toBeLessThanOrEqual(deadline + scaled(200));
    const { body } = await scrapeMetrics();
    expect(body).toContain(`tenant_console_forward_leases_given_back_total{destination_id="${destinationId}"} 1`);

    // Given back due now and unleased (NOTIFY on PostgreSQL, the poll on PGlite), the other instance sends it within
    // a second or two, not after the lease's minute; it is then its one attempt, and the only one recorded.
    await vi.waitFor(() => expect(bed.receiver.received).toHaveLength(2), { timeout: scaled(2_000) });
    await vi.waitFor(async () => expect(await attemptsTo(destinationId)).toMatchObject([{ ok: true, status: 200 }]));
    expect(await deliveriesOf(destinationId)).toMatchObject([{ state: "delivered", attempts: 1 }]);
  });

  it("takes nothing new while draining, even when woken", async () => {
    const { connection, ids } = await destinationsTo(bed.receiver.url, ["Audit"]);
    const instance = startInstance();
    beginDraining();
    await receiveEvent(connection.token, [KEY1]);
    instance.wake();
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a wake's take and a poll's
    expect(bed.receiver.received).toEqual([]);
    expect(await deliveriesOf(ids[0]!)).toMatchObject([{ state: "pending", attempts: 0, leasedUntil: null }]);
    const started = Date.now();
    await drainWorkers(instance, started + 5_000);
    expect(Date.now() - started).toBeLessThan(scaled(1_000));
  });
});
