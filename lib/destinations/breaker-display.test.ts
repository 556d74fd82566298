import { afterAll, beforeAll, expect, it } from "vitest";

import { listAlerts } from "@/lib/alerts/alerts";
import { evaluateAlerts } from "@/lib/alerts/evaluate";
import type { Database } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { listDestinations } from "./destinations";
import { listEventForwards } from "./event-forwards";
import { receiveEvent } from "./test-helpers";

// The circuit breaker as the pages and GET /api/alerts show it. The scheduler trips and closes it
// (lib/destinations/outbox.ts); here its columns are set as it would set them.

let db: Database;
let tearDown: () => Promise<void>;
beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

const minutesFrom = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

it("a tripped destination reads 'tripped' with its next probe on the Destinations page, in the event's drawer and in its alert", async () => {
  const connection = await insertTestConnection("Breaker", [KEY1]);
  const now = new Date();
  const destination = (name: string, values: Partial<typeof forwardDestinations.$inferInsert>) =>
    db
      .insert(forwardDestinations)
      .values({ connectionId: connection.id, name, url: "https://app.example.test/hooks", ...values })
      .returning();
  const probeAt = minutesFrom(now, 2);
  const [tripped] = await destination("Tripped", {
    failingSince: minutesFrom(now, -90),
    consecutiveFailures: 7,
    trippedAt: minutesFrom(now, -80),
    probeAt,
  });
  await destination("Closed", {});
  await destination("Paused", {
    failingSince: minutesFrom(now, -25 * 60),
    pausedAt: minutesFrom(now, -60),
    trippedAt: minutesFrom(now, -24 * 60),
  });
  const event = await receiveEvent(connection.token, [KEY1]);

  expect(
    (await listDestinations(connection.id, "support")).map((d) => [
      d.name,
      d.health.state,
      d.health.tripped?.probeAt ?? null,
    ]),
  ).toEqual([
    ["Tripped", "tripped", probeAt.toISOString()],
    ["Closed", "delivered", null],
    // Paused says what an admin must do, tripped or not.
    ["Paused", "paused", null],
  ]);

  const forwards = await listEventForwards(connection.id, event.id, "support");
  expect(forwards.map((f) => [f.destinationName, f.tripped])).toEqual([
    ["Tripped", { since: minutesFrom(now, -80).toISOString(), probeAt: probeAt.toISOString() }],
    ["Closed", null],
    // Paused, nothing is sent, probes included.
    ["Paused", null],
  ]);

  await evaluateAlerts({ now });
  const { alerts } = await listAlerts({
    connectionId: connection.id,
    kind: "destination_failing",
    state: "all",
    muted: "all",
    limit: 50,
  });
  const alert = alerts.find((a) => a.subject === tripped!.id)!;
  expect(alert.measure.tripped).toEqual({ since: minutesFrom(now, -80).toISOString(), probeAt: probeAt.toISOString() });
  expect(alert.summary).toBe(
    `Destination Tripped has failed every attempt for 90 minutes (threshold 60 min). Its circuit breaker is tripped: the console sends one delivery at a time as a probe, the next at ${probeAt.toISOString()}, and the rest wait.`,
  );
});
