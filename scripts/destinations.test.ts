import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { Database } from "@/lib/db";
import { forwardDeliveries, forwardDestinations } from "@/lib/db/forwarding-schema";
import { auditLog, webhookEvents } from "@/lib/db/schema";
import { SERVICE_SIGNING_NEEDS_SERVER_KEY, SERVICE_SIGNING_TAKES_ONLY_VERIFIED } from "@/lib/destinations/constants";
import { getReplayProgress } from "@/lib/destinations/replay";
import { deliveriesOf, LOCAL_POLICY, receiveEvent, startReceiver } from "@/lib/destinations/test-helpers";
import { newWorkers, startWorkers } from "@/lib/destinations/worker";
import { reloadEnv } from "@/lib/env";
import { setUpTestDatabase } from "@/lib/testing/database";
import { scaled } from "@/lib/testing/timeouts";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { runCommandCapturing, runCommandProcess } from "./cli-testing";
import { destinationsCli } from "./destinations";

// Every URL here is on 127.0.0.1 or 127.0.0.2, the only hosts allowed is 127.0.0.1, and adding a
// destination sends nothing: no test reaches anything.
let db: Database;
let url: string | undefined;
let tearDown: () => Promise<void>;
// Acme has no server key (it can only sign with Standard Webhooks); Globex has one.
beforeAll(async () => {
  vi.stubEnv("CONSOLE_FORWARD_ALLOWED_HOSTS", "127.0.0.1");
  reloadEnv();
  ({ db, url, tearDown } = await setUpTestDatabase());
  await insertTestConnection("Acme");
  await insertTestConnection("Globex", ["srv_globex_key_000000000000001"]);
});
afterAll(async () => {
  await tearDown();
  vi.unstubAllEnvs();
  reloadEnv();
});

/** Runs the CLI in this process, on this file's database: its exit code, standard output and standard error. */
const cli = (...args: string[]) => runCommandCapturing(destinationsCli, args);

const destinationNames = async () =>
  (await db.select().from(forwardDestinations).orderBy(asc(forwardDestinations.name))).map((d) => d.name);

const hook = "http://127.0.0.1:9/hook";

it("adds, lists and removes destinations by connection name; a Standard Webhooks secret is printed once, by add only", async () => {
  const service = await cli(
    "add",
    "--connection",
    "globex",
    "--name",
    "Orders",
    "--url",
    hook,
    "--types",
    "authenticator.created, authenticator.deleted",
  );
  expect(service).toMatchObject({ code: 0, stderr: "" });
  expect(service.stdout).toBe(
    `Added Orders to globex: ${hook}, signing service, event types authenticator.created,authenticator.deleted, verification methods all.\n`,
  );

  const standard = await cli(
    "add",
    "--connection",
    "Acme",
    "--name",
    "Audit",
    "--url",
    hook,
    "--signing",
    "standard-webhooks",
    "--methods",
    "EMAIL_OTP",
  );
  expect(standard.code).toBe(0);
  const secret = /^Signing secret: (\S+)$/m.exec(standard.stdout)?.[1];
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
  expect(standard.stdout.split(secret!)).toHaveLength(2); // printed exactly once
  expect(standard.stdout).toContain("This secret will not be shown again");
  expect(standard.stdout).toMatch(
    /^Added Audit to Acme: .*, signing standard-webhooks, event types all, verification methods EMAIL_OTP\.$/m,
  );

  const all = await cli("list");
  expect(all.code).toBe(0);
  expect(all.stdout.trim().split("\n")).toEqual([
    `Acme\tAudit\t${hook}\ton\tstandard-webhooks\ttypes: all\tmethods: EMAIL_OTP\t0 pending`,
    `Globex\tOrders\t${hook}\ton\tservice\ttypes: authenticator.created,authenticator.deleted\tmethods: all\t0 pending`,
  ]);
  expect(all.stdout).not.toContain(secret);
  expect(all.stdout).not.toContain("whsec_");

  expect(await cli("list", "--connection", "GLOBEX")).toMatchObject({
    code: 0,
    stdout: expect.stringMatching(/^Globex\tOrders\t[^\n]*\n$/),
  });

  expect(await cli("remove", "--connection", "Acme", "--name", "audit")).toMatchObject({
    code: 0,
    stdout: "Removed Audit from Acme, with its queued deliveries and attempts.\n",
  });
  expect(await cli("remove", "--connection", "Acme", "--name", "Audit")).toMatchObject({
    code: 1,
    stderr: "Error: Acme has no destination named Audit.\n",
  });

  expect(await destinationNames()).toEqual(["Orders"]);
  const audits = await db.select().from(auditLog).orderBy(asc(auditLog.id));
  expect(audits.map((a) => [a.action, a.actorEmail, a.connectionName, a.target])).toEqual([
    ["destination.created", "cli", "Globex", "Orders"],
    ["destination.created", "cli", "Acme", "Audit"],
    ["destination.removed", "cli", "Acme", "Audit"],
  ]);
  expect(JSON.stringify(audits)).not.toContain(secret);
});

it("refuses bad input with the lib's words (or the usage for a bad option) and adds nothing", async () => {
  const before = await destinationNames();
  const add = (connection: string, url: string, ...rest: string[]) =>
    cli("add", "--connection", connection, "--name", "Hook", "--url", url, ...rest);

  const refused: Array<[args: Parameters<typeof add>, stderr: string]> = [
    [["Globex", "http://127.0.0.2:9/hook"], "Error: A destination URL starts with https://.\n"],
    [
      ["Globex", "http://user:pass@127.0.0.1:9/hook"],
      "Error: A destination URL carries no user name or password (user:pass@): send them in a header.\n",
    ],
    [["Acme", hook, "--signing", "service"], `Error: ${SERVICE_SIGNING_NEEDS_SERVER_KEY}\n`],
    [["Initech", hook], "Error: No connection named Initech.\n"],
  ];
  for (const [args, stderr] of refused) expect(await add(...args)).toMatchObject({ code: 1, stdout: "", stderr });
  expect(SERVICE_SIGNING_NEEDS_SERVER_KEY).toContain("choose Standard Webhooks");

  // Orders, added by the test above.
  expect(await cli("add", "--connection", "Globex", "--name", "orders", "--url", hook)).toMatchObject({
    code: 1,
    stderr: "Error: This connection already has a destination named orders.\n",
  });

  // As npm run destinations runs it, in a process of its own: the usage error is refused before the database is opened.
  const unknownOption = await runCommandProcess("destinations", [
    "add",
    "--connection",
    "Globex",
    "--name",
    "Hook",
    "--url",
    hook,
    "--secret",
    "whsec_x",
  ]);
  expect(unknownOption).toMatchObject({ code: 1, stdout: "" });
  expect(unknownOption.stderr).toMatch(/^Unknown option '--secret'.*\n\nUsage: npm run destinations -- <command>\n/);

  expect(await add("Globex", hook, "--signing", "hmac")).toMatchObject({
    code: 1,
    stderr: expect.stringMatching(/^--signing must be service or standard-webhooks\.\n\nUsage:/),
  });

  expect(await destinationNames()).toEqual(before);
});

it("add takes --include-unverified (Standard Webhooks only) and --max-per-second, refused with the lib's words", async () => {
  const added = await cli(
    "add",
    "--connection",
    "Acme",
    "--name",
    "Capped",
    "--url",
    hook,
    "--signing",
    "standard-webhooks",
    "--include-unverified",
    "--max-per-second",
    "50",
  );
  expect(added).toMatchObject({ code: 0, stderr: "" });
  expect(added.stdout).toMatch(
    /^Added Capped to Acme: .*, verification methods all, at most 50 per second, unverified events included\.$/m,
  );
  const [row] = (await db.select().from(forwardDestinations)).filter((d) => d.name === "Capped");
  expect(row).toMatchObject({ includeUnverified: true, maxPerSecond: 50 });

  const add = (...rest: string[]) => cli("add", "--connection", "Globex", "--name", "Refused", "--url", hook, ...rest);
  expect(await add("--include-unverified")).toMatchObject({
    code: 1,
    stderr: `Error: ${SERVICE_SIGNING_TAKES_ONLY_VERIFIED}\n`,
  });
  for (const rate of ["0", "10001", "ten"]) {
    expect(await add("--max-per-second", rate)).toMatchObject({
      code: 1,
      stderr: "Error: Maximum deliveries per second is a whole number from 1 to 10000, or empty for no cap.\n",
    });
  }
  expect((await destinationNames()).filter((name) => name === "Refused")).toEqual([]);
  expect(await cli("remove", "--connection", "Acme", "--name", "Capped")).toMatchObject({ code: 0 });
});

describe("replay", () => {
  // Initrode's events: three received before `between`, two after (one of them stored unverified); its
  // destination Handler signs as the service, added after they arrived (so only a replay queues them).
  let between: string;
  let before: string[];
  let after: string[];
  beforeAll(async () => {
    const initrode = await insertTestConnection("Initrode", [KEY1]);
    before = [];
    for (let i = 0; i < 3; i++) before.push((await receiveEvent(initrode.token, [KEY1])).id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    between = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    after = [];
    for (let i = 0; i < 3; i++) after.push((await receiveEvent(initrode.token, [KEY1])).id);
    await db.update(webhookEvents).set({ signatureStatus: "unsigned" }).where(eq(webhookEvents.eventId, after[2]!));
    expect(await cli("add", "--connection", "Initrode", "--name", "Handler", "--url", hook)).toMatchObject({ code: 0 });
  });
  const queuedBy = async (replayId: string) =>
    (await db.select().from(forwardDeliveries).where(eq(forwardDeliveries.replayId, replayId)))
      .map((d) => d.eventId)
      .sort();

  it("queues the events received in a window, says how many and what it left out, and waits until they are queued", async () => {
    const replayed = await cli("replay", "--connection", "initrode", "--name", "handler", "--since", between);
    expect(replayed).toMatchObject({ code: 0, stderr: "" });
    const replayId = /\(replay ([0-9a-f-]{36})\)/.exec(replayed.stdout)?.[1];
    expect(replayed.stdout).toBe(
      [
        `Queued 2 events received from ${between} to now to Handler (replay ${replayId}).`,
        "1 event is left out: the console could not verify its signature when it arrived, and Handler signs as the service, which would tell it the service sent it.",
        `The console's forwarding workers send them. Follow it: GET /api/replays/${replayId} (an admin's token), or the log's Replay… dialog.`,
        `Cancel it: npm run destinations -- cancel-replay --replay ${replayId}`,
        "",
      ].join("\n"),
    );
    // All queued when it exits: nothing is left for a background pass.
    expect(await queuedBy(replayId!)).toEqual(after.slice(0, 2).sort());
    expect(await getReplayProgress(replayId!)).toMatchObject({ state: "running", queued: 2, total: 2 });

    const second = await cli("replay", "--connection", "Initrode", "--name", "Handler", "--since", between);
    expect(second).toMatchObject({ code: 1, stdout: "" });
    expect(second.stderr).toMatch(
      /^Error: A replay to Handler is still running \(started [^,]+, 2 of 2 still waiting\)\./,
    );
    expect(second.stderr).toContain(`To cancel it: npm run destinations -- cancel-replay --replay ${replayId}\n`);

    expect(await cli("cancel-replay", "--replay", replayId!)).toEqual({
      code: 0,
      stdout: `Cancelled replay ${replayId}: 2 events that waited will not be sent.\n`,
      stderr: "",
    });
    expect(await cli("cancel-replay", "--replay", replayId!)).toMatchObject({
      code: 1,
      stderr: "Error: This replay has already been cancelled or no longer exists.\n",
    });

    const earlier = await cli(
      "replay",
      "--connection",
      "Initrode",
      "--name",
      "Handler",
      "--since",
      "2000-01-01T00:00:00Z",
      "--until",
      between,
    );
    expect(earlier).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        new RegExp(`^Queued 3 events received from 2000-01-01T00:00:00Z to ${between} to Handler `),
      ),
    });
    const earlierId = /\(replay ([0-9a-f-]{36})\)/.exec(earlier.stdout)![1]!;
    expect(await queuedBy(earlierId)).toEqual([...before].sort());
    await cli("cancel-replay", "--replay", earlierId);

    const audits = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.connectionName, "Initrode"))
      .orderBy(asc(auditLog.id));
    expect(audits.map((a) => [a.action, a.actorEmail, a.target])).toEqual([
      ["destination.created", "cli", "Handler"],
      ["destination.replay_started", "cli", "Handler"],
      ["destination.replay_cancelled", "cli", "Handler"],
      ["destination.replay_started", "cli", "Handler"],
      ["destination.replay_cancelled", "cli", "Handler"],
    ]);
  });

  it("refuses a window it cannot read, and a destination or connection it cannot find, in words", async () => {
    const replay = (...rest: string[]) => cli("replay", "--connection", "Initrode", "--name", "Handler", ...rest);
    expect(await replay("--since", "yesterday")).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^--since must be an ISO 8601 time with its offset, e.g. 2026-01-31T12:00:00Z\.\n\nUsage:/,
      ),
    });
    expect(await replay()).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^--since is required\.\n\nUsage:/),
    });
    expect(await replay("--since", between, "--until", "2000-01-01T00:00:00Z")).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^--until must be later than --since\.\n/),
    });
    expect(await cli("replay", "--connection", "Initrode", "--name", "Nowhere", "--since", between)).toMatchObject({
      code: 1,
      stderr: "Error: Initrode has no destination named Nowhere.\n",
    });
    expect(await cli("replay", "--connection", "Umbrella", "--name", "Handler", "--since", between)).toMatchObject({
      code: 1,
      stderr: "Error: No connection named Umbrella.\n",
    });
    expect(await cli("cancel-replay", "--replay", "not-an-id")).toMatchObject({
      code: 1,
      stderr: "Error: --replay must be a replay's id (a UUID), not not-an-id.\n",
    });
  });
});

/** Waits until `done()`, at most `ms`, on timeouts: expect.poll would move a faked setInterval on. */
async function realClockUntil(done: () => Promise<boolean>, ms: number) {
  for (const end = Date.now() + ms; !(await done()) && Date.now() < end;)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("a replay queued from the command line", () => {
  // PostgreSQL only: PGlite is opened by one process at a time, so no other process queues beside the console.
  it.skipIf(!process.env.DATABASE_URL)(
    "is delivered by another process's workers within 2 s: the CLI's queueing wakes them",
    async () => {
      const receiver = await startReceiver();
      const hooli = await insertTestConnection("Hooli", [KEY1]);
      const since = new Date().toISOString();
      const events = [await receiveEvent(hooli.token, [KEY1]), await receiveEvent(hooli.token, [KEY1])];
      expect(await cli("add", "--connection", "Hooli", "--name", "Recovery", "--url", receiver.url)).toMatchObject({
        code: 0,
      });
      const [destination] = await db
        .select()
        .from(forwardDestinations)
        .where(eq(forwardDestinations.connectionId, hooli.id));
      // The workers' poll (a setInterval) holds still: only being told can wake them.
      vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
      const worker = startWorkers(newWorkers(() => LOCAL_POLICY));
      try {
        const replayed = await runCommandProcess(
          "destinations",
          ["replay", "--connection", "Hooli", "--name", "Recovery", "--since", since],
          { DATABASE_URL: url },
        );
        expect(replayed).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Queued 2 events received from /) });
        const delivered = async () => (await deliveriesOf(destination!.id)).filter((d) => d.state === "delivered");
        await realClockUntil(async () => (await delivered()).length === 2, scaled(2_000));
        const deliveries = await delivered();
        expect(deliveries.map((d) => d.eventId).sort()).toEqual(events.map((e) => e.id).sort());
        expect(receiver.received).toHaveLength(2);
        for (const delivery of deliveries)
          expect(delivery.finishedAt!.getTime() - delivery.createdAt.getTime()).toBeLessThan(scaled(2_000));
      } finally {
        await worker.stop();
        vi.useRealTimers();
        await receiver.close();
      }
    },
  );
});
