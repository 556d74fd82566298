import http from "node:http";
import type { AddressInfo } from "node:net";

import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { forwardAttempts, forwardDestinations } from "@/lib/db/forwarding-schema";
import { logger } from "@/lib/logger";
import { scaled } from "@/lib/testing/timeouts";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { EVENT_ID_HEADER, retryDelaySeconds } from "./constants";
import { createDestination } from "./destinations";
import { startAttempts } from "./forward";
import { giveBackLeases } from "./leases";
import { takeDueDeliveries } from "./outbox";
import { deliveriesOf, destinationsTo, LOCAL_POLICY, receiveEvent, setUpForwardingFile } from "./test-helpers";
import { forwardDueDeliveries, newWorkers, startWorkers } from "./worker";

// No lost lease: whatever fails between taking deliveries and recording their attempts ends their
// leases with a failed attempt, so each is tried again on its usual schedule, never after a silent
// minute. Time passes for the outbox by moving its due times and leases, not by waiting.

const admin = { id: null, email: "admin@example.com" };
const bed = setUpForwardingFile();

/** The longest a delivery waits after its `attempts`-th failed attempt: the schedule's step, +20 %. */
const longestWaitSeconds = (attempts: number) => retryDelaySeconds(attempts, () => 1);

/** As if `seconds` had passed for the outbox: every pending delivery's due time and lease are that much nearer. */
async function pass(seconds: number) {
  await bed.db.execute(sql`
    update forward_deliveries set due_at = due_at - make_interval(secs => ${seconds}), leased_until = leased_until - make_interval(secs => ${seconds})
    where state = 'pending'`);
}

const attemptsOf = async (destinationIds: string[]) =>
  (await bed.db.select().from(forwardAttempts).orderBy(asc(forwardAttempts.id))).filter((a) =>
    destinationIds.includes(a.destinationId),
  );

const deliveriesTo = async (destinationIds: string[]) =>
  (await Promise.all(destinationIds.map((id) => deliveriesOf(id)))).flat();

/** Each delivery waits for its next attempt, unleased, due within its schedule's step after `attempts` failed ones. */
async function expectWaitingOnSchedule(destinationIds: string[], attempts: number) {
  const waiting = (await deliveriesTo(destinationIds)).filter((d) => d.state === "pending");
  for (const delivery of waiting) {
    expect(delivery).toMatchObject({ attempts, leasedUntil: null });
    expect(delivery.dueAt.getTime() - Date.now()).toBeLessThanOrEqual(longestWaitSeconds(attempts) * 1_000);
  }
  return waiting;
}

describe("an attempt the console cannot make", () => {
  it("a throw in starting a batch, then an attempt that rejects: each is failed with its reason and sent at its next retry", async () => {
    const { connection, ids } = await destinationsTo(bed.receiver.url, ["Orders", "Audit"]);
    const events = [await receiveEvent(connection.token, [KEY1]), await receiveEvent(connection.token, [KEY1])];
    let batches = 0;
    const failing: typeof startAttempts = async (taken, policy) => {
      batches++;
      if (batches === 1) throw new Error("the destinations could not be read");
      if (batches > 2) return startAttempts(taken, policy);
      const started = await startAttempts(taken.slice(1), policy);
      return [Promise.reject(new Error("its signer could not be built")), ...started];
    };
    const worker = startWorkers(newWorkers(() => LOCAL_POLICY, failing));
    try {
      // The first batch, all four deliveries: none is sent, each has a failed attempt that says why.
      await expect.poll(async () => (await attemptsOf(ids)).length, { timeout: scaled(2_000), interval: 20 }).toBe(4);
      expect((await attemptsOf(ids)).map((a) => [a.ok, a.status, a.outcome])).toEqual(
        Array(4).fill([false, null, "the console could not make this attempt: the destinations could not be read"]),
      );
      expect(bed.receiver.received).toEqual([]);
      expect(await expectWaitingOnSchedule(ids, 1)).toHaveLength(4);
      // The console's fault says nothing of the destinations: no failing time, no step towards the breaker.
      const destinations = await bed.db
        .select()
        .from(forwardDestinations)
        .where(eq(forwardDestinations.connectionId, connection.id));
      expect(destinations.map((d) => [d.consecutiveFailures, d.failingSince])).toEqual([
        [0, null],
        [0, null],
      ]);

      // At their first retry: three are delivered, the one whose attempt rejected waits for its second.
      await pass(longestWaitSeconds(1));
      worker.wake();
      await expect.poll(async () => (await attemptsOf(ids)).length, { timeout: scaled(2_000), interval: 20 }).toBe(8);
      expect(bed.receiver.received).toHaveLength(3);
      expect((await expectWaitingOnSchedule(ids, 2)).map((d) => d.lastOutcome)).toEqual([
        "the console could not make this attempt: its signer could not be built",
      ]);

      await pass(longestWaitSeconds(2));
      worker.wake();
      await expect
        .poll(async () => (await deliveriesTo(ids)).filter((d) => d.state === "delivered").length, {
          timeout: scaled(2_000),
          interval: 20,
        })
        .toBe(4);
    } finally {
      await worker.stop();
    }
    // Each event reached each destination once.
    expect(bed.receiver.received.map((r) => r.headers[EVENT_ID_HEADER]).sort()).toEqual(
      [...events, ...events].map((e) => e.id).sort(),
    );
  });
});

/** A handler whose answer carries a NUL byte, which no text column holds. */
async function startNulAnsweringReceiver() {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => response.end("accepted\u0000"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("recording an attempt", () => {
  it("keeps an answer with a NUL byte, so neither its attempt nor the batch's others go unrecorded", async () => {
    const nul = await startNulAnsweringReceiver();
    try {
      const { connection, ids } = await destinationsTo(nul.url, ["Nul"]);
      const healthy = await createDestination(
        admin,
        {
          connectionId: connection.id,
          name: "Healthy",
          url: bed.receiver.url,
          signing: "service",
          eventTypes: [],
          verificationMethods: [],
        },
        LOCAL_POLICY,
      );
      if (!healthy.ok) throw new Error(healthy.error);
      await receiveEvent(connection.token, [KEY1]);
      expect(await forwardDueDeliveries(LOCAL_POLICY)).toBe(2);
      expect((await deliveriesTo([...ids, healthy.id])).map((d) => [d.state, d.leasedUntil])).toEqual([
        ["delivered", null],
        ["delivered", null],
      ]);
      expect((await attemptsOf(ids)).map((a) => a.responseBody)).toEqual(["accepted\uFFFD"]);
    } finally {
      await nul.close();
    }
  });

  it("tries again, while the lease holds, to record an attempt the database refused", async () => {
    const { connection, ids } = await destinationsTo(bed.receiver.url, ["Orders"]);
    await bed.db.execute(
      sql`alter table forward_attempts add constraint attempt_refused_by_test check (false) not valid`,
    );
    const logged = vi.spyOn(logger, "error");
    const worker = startWorkers(newWorkers(() => LOCAL_POLICY));
    try {
      await receiveEvent(connection.token, [KEY1]);
      worker.wake();
      const recordingFailed = () =>
        logged.mock.calls.filter(([message]) => message.startsWith("recording forwarding attempts failed")).length;
      await expect.poll(recordingFailed, { timeout: scaled(2_000), interval: 20 }).toBe(1);
      expect(bed.receiver.received).toHaveLength(1);
      expect(await attemptsOf(ids)).toEqual([]);
      await bed.db.execute(sql`alter table forward_attempts drop constraint attempt_refused_by_test`);
      // The database takes it again: recorded at the worker's next look, long before the lease would end.
      await expect
        .poll(async () => (await deliveriesTo(ids)).map((d) => [d.state, d.leasedUntil]), {
          timeout: scaled(2_500),
          interval: 20,
        })
        .toEqual([["delivered", null]]);
      expect(await attemptsOf(ids)).toMatchObject([{ ok: true, status: 200 }]);
      expect(bed.receiver.received).toHaveLength(1);
    } finally {
      await bed.db.execute(sql`alter table forward_attempts drop constraint if exists attempt_refused_by_test`);
      await worker.stop();
      logged.mockRestore();
    }
  });
});

describe("giving a lease back", () => {
  it("leaves alone a lease that ran out and was taken again: the new taker's attempt stays the only one under way", async () => {
    // Only this test's delivery is there to take: the earlier tests' are cancelled.
    await bed.db.execute(sql`update forward_deliveries set state = 'cancelled' where state = 'pending'`);
    const { connection, ids } = await destinationsTo(bed.receiver.url, ["Slow"]);
    await receiveEvent(connection.token, [KEY1]);
    const [first] = await takeDueDeliveries(1);
    await pass(61); // the first taker's lease runs out (it hung); another takes the delivery
    const [second] = await takeDueDeliveries(1);
    expect(second).toMatchObject({ id: first!.id, attempts: 2 });

    const givenBack = (taken: typeof first) => ({
      givenBack: true as const,
      deliveryId: taken!.id,
      destinationId: ids[0]!,
      attempts: taken!.attempts,
    });
    await giveBackLeases([givenBack(first)]);
    const [held] = await deliveriesOf(ids[0]!);
    expect(held).toMatchObject({ attempts: 2, leasedUntil: expect.any(Date) });
    expect(await takeDueDeliveries(1)).toEqual([]);

    await giveBackLeases([givenBack(second)]);
    expect(await deliveriesOf(ids[0]!)).toMatchObject([{ attempts: 1, leasedUntil: null }]);
    expect(await takeDueDeliveries(1)).toMatchObject([{ id: first!.id, attempts: 2 }]);
  });
});
