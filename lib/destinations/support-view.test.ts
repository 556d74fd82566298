import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { forwardAttempts } from "@/lib/db/forwarding-schema";
import { RefusedAddressError } from "@/lib/outbound/address-policy";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { createDestination, listDestinations } from "./destinations";
import { listEventForwards } from "./event-forwards";
import { deliveriesOf, LOCAL_POLICY, receiveEvent } from "./test-helpers";

// What support sees of a destination: its URL's origin only (a token in the path is a secret too), and
// an attempt the address policy refused without the internal address the host resolved to. Admins see both.
// Nothing is sent: the refused attempt is written as the worker writes one.

const admin = { id: null, email: "admin@example.com" };
const URL_WITH_TOKENS = "http://127.0.0.1:9/hooks/tok_path_secret?token=query_secret";
let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

describe("support's view of a destination", () => {
  it("lists the URL's origin for support, whole for admins", async () => {
    const { id } = await insertTestConnection("Origins", [KEY1]);
    const created = await createDestination(
      admin,
      {
        connectionId: id,
        name: "Handler",
        url: URL_WITH_TOKENS,
        signing: "standard_webhooks",
        eventTypes: [],
        verificationMethods: [],
      },
      LOCAL_POLICY,
    );
    expect(created).toMatchObject({ ok: true });
    expect((await listDestinations(id, "admin")).map((d) => d.url)).toEqual([URL_WITH_TOKENS]);
    const forSupport = await listDestinations(id, "support");
    expect(forSupport.map((d) => d.url)).toEqual(["http://127.0.0.1:9"]);
    expect(JSON.stringify(forSupport)).not.toMatch(/tok_path_secret|query_secret|\/hooks/);
  });

  it("words a refused address by its range for support, with the address for admins", async () => {
    const connection = await insertTestConnection("Refusals", [KEY1]);
    const created = await createDestination(
      admin,
      {
        connectionId: connection.id,
        name: "Rebound",
        url: "http://127.0.0.1:9/in",
        signing: "standard_webhooks",
        eventTypes: [],
        verificationMethods: [],
      },
      LOCAL_POLICY,
    );
    if (!created.ok) throw new Error(created.error);
    const event = await receiveEvent(connection.token, [KEY1]);
    const [delivery] = await deliveriesOf(created.id);
    const outcome = new RefusedAddressError("10.0.0.5", "private").message;
    await db.insert(forwardAttempts).values({
      deliveryId: delivery!.id,
      destinationId: created.id,
      startedAt: new Date(),
      latencyMs: 3,
      status: null,
      ok: false,
      outcome,
    });

    const [forAdmin] = await listEventForwards(connection.id, event.id, "admin");
    expect(forAdmin!.deliveries[0]!.attempts.map((a) => a.outcome)).toEqual([
      "the address 10.0.0.5 is not allowed (private)",
    ]);
    const [forSupport] = await listEventForwards(connection.id, event.id, "support");
    expect(forSupport!.deliveries[0]!.attempts.map((a) => a.outcome)).toEqual([
      "the destination's host resolves to an address that is not allowed (private)",
    ]);
    expect(JSON.stringify(forSupport)).not.toContain("10.0.0.5");
  });
});
