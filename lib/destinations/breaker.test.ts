import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { forwardDeliveries, forwardDestinations } from "@/lib/db/forwarding-schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";

import {
  BREAKER_FIRST_PROBE_SECONDS as FIRST,
  BREAKER_MAX_PROBE_SECONDS as MAX,
  BREAKER_THRESHOLD as N,
} from "./constants";
import { recordAttempts, takeDueDeliveries, type AttemptRecord } from "./outbox";

// The circuit breaker's rules on a real database: as recordAttempts writes them from a batch of attempts,
// and as takeDueDeliveries keeps to them.

let db: Database;
let tearDown: () => Promise<void>;
let connectionId: string;
beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  ({ id: connectionId } = await insertTestConnection("Breaker"));
});
afterAll(() => tearDown());

/** An attempt: delivered, failed, or failed for a reason that says nothing of the destination. */
type Step = "ok" | "fail" | "neutral";
type Before = { consecutive: number; failingSinceAgo?: number; trippedAgo?: number };
type After = {
  consecutive: number;
  /** "kept": as before; a number: the batch's attempt it began with. */
  failingSince: "kept" | number | null;
  tripped: "no" | "now" | "kept";
  /** Seconds from now to the next probe, or "kept". */
  probeIn: "kept" | number | null;
};

const failures = (count: number): Step[] => Array.from({ length: count }, () => "fail");
const SECOND = 1000;

const cases: Array<[string, Before, Step[], After]> = [
  [
    "counts a failure below the threshold and marks when the failing began",
    { consecutive: 0 },
    ["fail"],
    { consecutive: 1, failingSince: 0, tripped: "no", probeIn: null },
  ],
  [
    "adds the batch's failures to those before it, keeping when the failing began",
    { consecutive: 2, failingSinceAgo: 3600 },
    ["fail", "fail"],
    { consecutive: 4, failingSince: "kept", tripped: "no", probeIn: null },
  ],
  [
    `opens at ${N} failures in a row, its first probe ${FIRST} s off`,
    { consecutive: N - 1, failingSinceAgo: 600 },
    ["fail"],
    { consecutive: N, failingSince: "kept", tripped: "now", probeIn: FIRST },
  ],
  [
    `opens at ${N} failures within one batch`,
    { consecutive: 0 },
    failures(N),
    { consecutive: N, failingSince: 0, tripped: "now", probeIn: FIRST },
  ],
  [
    "keeps it open after a failed probe, the next one as far off as it has been open",
    { consecutive: N, failingSinceAgo: 7200, trippedAgo: 120 },
    ["fail"],
    { consecutive: N + 1, failingSince: "kept", tripped: "kept", probeIn: 120 },
  ],
  [
    `waits at least ${FIRST} s for the next probe`,
    { consecutive: N, failingSinceAgo: 7200, trippedAgo: 10 },
    ["fail"],
    { consecutive: N + 1, failingSince: "kept", tripped: "kept", probeIn: FIRST },
  ],
  [
    `waits at most ${MAX} s for the next probe`,
    { consecutive: N + 20, failingSinceAgo: 7200, trippedAgo: 3 * MAX },
    ["fail"],
    { consecutive: N + 21, failingSince: "kept", tripped: "kept", probeIn: MAX },
  ],
  [
    "closes on a delivered probe and clears the failing",
    { consecutive: N + 3, failingSinceAgo: 7200, trippedAgo: 300 },
    ["ok"],
    { consecutive: 0, failingSince: null, tripped: "no", probeIn: null },
  ],
  [
    "counts only the failures after the batch's last delivered attempt, failing from the first of them",
    { consecutive: 3, failingSinceAgo: 3600 },
    ["fail", "ok", "fail", "fail"],
    { consecutive: 2, failingSince: 2, tripped: "no", probeIn: null },
  ],
  [
    `opens anew when ${N} failures follow a delivered attempt in the batch`,
    { consecutive: N, failingSinceAgo: 7200, trippedAgo: 300 },
    ["ok", ...failures(N)],
    { consecutive: N, failingSince: 1, tripped: "now", probeIn: FIRST },
  ],
  [
    "leaves it as it was after a failure that says nothing of the destination",
    { consecutive: N, failingSinceAgo: 7200, trippedAgo: 120 },
    ["neutral"],
    { consecutive: N, failingSince: "kept", tripped: "kept", probeIn: "kept" },
  ],
];

describe("the circuit breaker", () => {
  it.each(cases)("%s", async (_name, before, steps, after) => {
    const now = Date.now();
    const ago = (seconds: number | undefined) => (seconds === undefined ? null : new Date(now - seconds * SECOND));
    const [destination] = await db
      .insert(forwardDestinations)
      .values({
        connectionId,
        name: crypto.randomUUID(),
        url: "http://127.0.0.1:9/hooks",
        consecutiveFailures: before.consecutive,
        failingSince: ago(before.failingSinceAgo),
        trippedAt: ago(before.trippedAgo),
        // A tripped breaker's probe is due: it is the attempt being recorded.
        probeAt: before.trippedAgo === undefined ? null : ago(1),
      })
      .returning();
    const deliveries = await db
      .insert(forwardDeliveries)
      .values(
        steps.map((_, i) => ({
          destinationId: destination!.id,
          connectionId,
          eventId: `evt_${i}`,
          attempts: 1,
          leasedUntil: new Date(now + 60 * SECOND),
        })),
      )
      .returning({ id: forwardDeliveries.id });
    const startedAt = (i: number) => new Date(now - (steps.length - i) * SECOND);
    await recordAttempts(
      steps.map((step, i): AttemptRecord => ({
        deliveryId: deliveries[i]!.id,
        destinationId: destination!.id,
        startedAt: startedAt(i),
        latencyMs: 10,
        status: step === "ok" ? 200 : step === "fail" ? 503 : null,
        ok: step === "ok",
        outcome: step,
        responseBody: null,
        ...(step === "neutral" ? { countsAgainstDestination: false as const } : {}),
        next: step === "ok" ? { state: "delivered" } : { state: "pending", retrySeconds: 60 },
      })),
    );

    const [row] = await db.select().from(forwardDestinations).where(eq(forwardDestinations.id, destination!.id));
    expect(row!.consecutiveFailures).toBe(after.consecutive);
    const failingSince =
      after.failingSince === "kept"
        ? destination!.failingSince
        : after.failingSince === null
          ? null
          : startedAt(after.failingSince);
    expect(row!.failingSince).toEqual(failingSince);
    if (after.tripped === "no") expect(row!.trippedAt).toBeNull();
    else if (after.tripped === "kept") expect(row!.trippedAt).toEqual(destination!.trippedAt);
    else expect(Math.abs(row!.trippedAt!.getTime() - Date.now())).toBeLessThan(5 * SECOND);
    if (after.probeIn === null) expect(row!.probeAt).toBeNull();
    else if (after.probeIn === "kept") expect(row!.probeAt).toEqual(destination!.probeAt);
    else expect((row!.probeAt!.getTime() - Date.now()) / SECOND).toBeCloseTo(after.probeIn, -1);
  });
});

type Breaker = { tripped: boolean; probeDue?: boolean; inFlight?: number };
const takes: Array<[string, Breaker, number]> = [
  ["takes every due delivery of a destination whose breaker is closed", { tripped: false }, 3],
  ["takes nothing of an open breaker before its probe's time", { tripped: true, probeDue: false }, 0],
  ["takes one delivery, as a probe, once its time has come", { tripped: true, probeDue: true }, 1],
  ["takes no second probe while one is under way", { tripped: true, probeDue: true, inFlight: 1 }, 0],
];

describe("taking for a destination with a circuit breaker", () => {
  it.each(takes)("%s", async (_name, breaker, taken) => {
    await db.execute(
      sql`update forward_deliveries set state = 'cancelled', leased_until = null where state = 'pending'`,
    );
    const now = Date.now();
    const [destination] = await db
      .insert(forwardDestinations)
      .values({
        connectionId,
        name: crypto.randomUUID(),
        url: "http://127.0.0.1:9/hooks",
        consecutiveFailures: breaker.tripped ? N : 0,
        trippedAt: breaker.tripped ? new Date(now - 60 * SECOND) : null,
        probeAt: breaker.tripped ? new Date(now + (breaker.probeDue ? -1 : 60) * SECOND) : null,
      })
      .returning();
    const due = { destinationId: destination!.id, connectionId, dueAt: new Date(now - SECOND) };
    await db.insert(forwardDeliveries).values([
      ...[0, 1, 2].map((i) => ({ ...due, eventId: `evt_due_${i}` })),
      ...Array.from({ length: breaker.inFlight ?? 0 }, (_, i) => ({
        ...due,
        eventId: `evt_leased_${i}`,
        dueAt: new Date(now + 60 * SECOND),
        leasedUntil: new Date(now + 60 * SECOND),
      })),
    ]);
    expect(await takeDueDeliveries(50)).toHaveLength(taken);
  });
});
