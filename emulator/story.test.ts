import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { authenticatorInputSchema, VERIFICATION_METHODS } from "./seed";
import type { RunningEmulator } from "./server";
import { expiryOffsetSeconds, STORY_INCIDENTS, storyActionsBetween, type StoryAction, type StoryPlan } from "./story";
import { advanceClock, control, EU_TENANT, signatureMatches, startTestEmulator, US_TENANT } from "./test-helpers";

const START_MS = Date.parse("2026-03-01T12:00:00.000Z");
const plan: StoryPlan = { startMs: START_MS, tenantIds: ["tenant-a", "tenant-b"], untilMs: null };
const firstSeconds = (seconds: number) => storyActionsBetween(plan, START_MS, START_MS + seconds * 1000);
const expiries = (actions: StoryAction[]) =>
  actions.filter((a): a is Extract<StoryAction, { kind: "expiry" }> => a.kind === "expiry");

describe("the demo story's schedule", () => {
  it("expires an authenticator every few seconds, for several users of every tenant", () => {
    const regular = expiries(firstSeconds(600)).filter((a) => !a.authenticator.userAuthenticatorId!.includes("burst"));
    const gaps = regular.slice(1).map((a, i) => (a.atMs - regular[i]!.atMs) / 1000);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(5);
    expect(regular.length).toBeGreaterThan(150); // 10 minutes
    expect(new Set(regular.map((a) => a.tenantId))).toEqual(new Set(plan.tenantIds));
    for (const tenantId of plan.tenantIds) {
      expect(new Set(regular.filter((a) => a.tenantId === tenantId).map((a) => a.userId)).size).toBeGreaterThanOrEqual(
        6,
      );
    }
  });

  it("covers every verification method for each tenant within 90 s, and IOS, ANDROID and no platform", () => {
    const early = expiries(firstSeconds(90));
    for (const tenantId of plan.tenantIds) {
      const methods = new Set(
        early.filter((a) => a.tenantId === tenantId).map((a) => a.authenticator.verificationMethod),
      );
      expect([...methods].sort()).toEqual([...VERIFICATION_METHODS].sort());
    }
    const platforms = new Set(early.map((a) => a.authenticator.devicePlatform ?? "none"));
    expect(platforms).toEqual(new Set(["IOS", "ANDROID", "none"]));
  });

  it("writes authenticators the emulator's own seed rules accept (contact and credential fields by method)", () => {
    for (const { authenticator } of expiries(firstSeconds(600))) {
      expect(authenticatorInputSchema.safeParse(authenticator).error).toBeUndefined();
      expect(Date.parse(authenticator.createdAt!)).toBeLessThan(Date.parse(authenticator.expiresAt!));
    }
  });

  it("reports some expiries hours late, within a minute of the start: 1–6 h, 6–24 h and over 24 h", () => {
    const lateHours = expiries(firstSeconds(60)).map((a) => a.lateSeconds / 3600);
    expect(lateHours.some((h) => h >= 1 && h < 6)).toBe(true);
    expect(lateHours.some((h) => h >= 6 && h < 24)).toBe(true);
    expect(lateHours.some((h) => h >= 24)).toBe(true);
    // Most are fresh: they expire two seconds after being added.
    expect(lateHours.filter((h) => h === 0).length).toBeGreaterThan(lateHours.length / 2);
    for (const action of expiries(firstSeconds(60))) {
      const expiresAtMs = Date.parse(action.authenticator.expiresAt!);
      expect(expiresAtMs).toBe(action.lateSeconds > 0 ? action.atMs - action.lateSeconds * 1000 : action.atMs + 2000);
    }
  });

  it("plays each incident once: a bad-signature burst on the first tenant, then an outage on the second", () => {
    const faults = firstSeconds(3600).filter((a) => a.kind === "delivery_fault");
    const { badSignatures, outage } = STORY_INCIDENTS;
    expect(faults).toEqual([
      {
        kind: "delivery_fault",
        atMs: START_MS + badSignatures.atSeconds * 1000,
        tenantId: "tenant-a",
        mode: "bad_signature",
        seconds: badSignatures.seconds,
      },
      {
        kind: "delivery_fault",
        atMs: START_MS + outage.atSeconds * 1000,
        tenantId: "tenant-b",
        mode: "outage",
        seconds: outage.seconds,
      },
    ]);
    const burst = expiries(firstSeconds(60)).filter(
      (a) => a.atMs === START_MS + badSignatures.atSeconds * 1000 && a.tenantId === "tenant-a",
    );
    expect(burst.length).toBeGreaterThanOrEqual(badSignatures.burst);
    // Shorter than the retries' span (3 retries 30 s apart), so every event of the outage gets through.
    expect(outage.seconds).toBeLessThan(90);
  });

  it("is the same story however it is sliced (played tick by tick or all at once) and on every run", () => {
    const whole = firstSeconds(300);
    const sliced = [0, 7, 20, 21, 64.5, 180, 300].slice(0, -1).flatMap((from, i, all) => {
      const to = [...all.slice(1), 300][i]!;
      return storyActionsBetween(plan, START_MS + from * 1000, START_MS + to * 1000);
    });
    expect(sliced).toEqual(whole);
    expect(firstSeconds(300)).toEqual(whole);
    expect(expiryOffsetSeconds(8)).toBe(24);
  });

  it("ends at its duration", () => {
    const bounded = { ...plan, untilMs: START_MS + 30_000 };
    const actions = storyActionsBetween(bounded, START_MS, START_MS + 600_000);
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((a) => a.atMs < START_MS + 30_000)).toBe(true);
    expect(storyActionsBetween(bounded, START_MS + 30_000, START_MS + 600_000)).toEqual([]);
  });
});

/** A receiver that checks the signature independently of the emulator and answers 401 when it fails. */
async function startVerifyingReceiver() {
  const received: Array<{ tenantId: string; eventId: string; verified: boolean }> = [];
  const keysByTenant = new Map<string, readonly string[]>([
    [US_TENANT.id, [US_TENANT.serverKey]],
    [EU_TENANT.id, EU_TENANT.serverKeys],
  ]);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const { id, tenantId } = JSON.parse(body) as { id: string; tenantId: string };
      const header = String(req.headers["x-signature-v2"] ?? "");
      const verified = (keysByTenant.get(tenantId) ?? []).some((key) => signatureMatches(header, body, key));
      received.push({ tenantId, eventId: id, verified });
      res.writeHead(verified ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the demo story in a running emulator", () => {
  let emulator: RunningEmulator;
  let receiver: Awaited<ReturnType<typeof startVerifyingReceiver>>;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    receiver = await startVerifyingReceiver();
  });
  afterAll(async () => {
    await emulator.close();
    await receiver.close();
  });

  it("delivers every event: the rotated-key burst is refused, then retried with the right key; the outage is recovered by retries", async () => {
    for (const tenant of [US_TENANT, EU_TENANT]) {
      expect((await control(emulator, "PUT", `tenants/${tenant.id}/webhook`, { url: receiver.url })).status).toBe(200);
    }
    const started = await control(emulator, "POST", "story", { durationSeconds: 120 });
    expect(started.status).toBe(200);
    // Two minutes of story, then time for the last retries (30 s apart), in ticks of 2 s as the demo's timer would.
    for (let second = 0; second < 240; second += 2) await advanceClock(emulator, 2);

    const attempts = (await (await control(emulator, "GET", "deliveries")).json()) as Array<{
      eventId: string;
      tenantId: string;
      attempt: number;
      statusCode: number | null;
      error: string | null;
    }>;
    const eventIds = new Set(attempts.map((a) => a.eventId));
    expect(eventIds.size).toBeGreaterThan(40);
    // Every event ends with a 2xx: nothing is lost to the incidents.
    for (const eventId of eventIds) {
      const last = attempts.filter((a) => a.eventId === eventId).at(-1)!;
      expect(last.statusCode, `event ${eventId}`).toBe(200);
    }

    // The outage: the second tenant's attempts answered 503 without a request, each event retried until it got through.
    const outage = attempts.filter((a) => a.statusCode === 503);
    expect(outage.length).toBeGreaterThanOrEqual(5);
    expect(new Set(outage.map((a) => a.tenantId))).toEqual(new Set([EU_TENANT.id]));
    expect(outage.every((a) => a.error?.includes("outage"))).toBe(true);
    expect(receiver.received.some((r) => outage.some((a) => a.eventId === r.eventId && a.attempt === 1))).toBe(true);
    expect(attempts.some((a) => a.attempt >= 3 && a.statusCode === 200)).toBe(true);

    // The burst: signed with a key the receiver does not hold, refused, then accepted on the retry.
    const refused = receiver.received.filter((r) => !r.verified);
    expect(refused.length).toBeGreaterThanOrEqual(STORY_INCIDENTS.badSignatures.burst);
    expect(new Set(refused.map((r) => r.tenantId))).toEqual(new Set([US_TENANT.id]));
    for (const { eventId } of refused) {
      expect(receiver.received.some((r) => r.eventId === eventId && r.verified)).toBe(true);
    }

    // A bounded story stops: more time passes, nothing new is added.
    const state = (await (await control(emulator, "GET", "state")).json()) as { story: { actionsPlayed: number } };
    await advanceClock(emulator, 60);
    const after = (await (await control(emulator, "GET", "state")).json()) as { story: { actionsPlayed: number } };
    expect(after.story.actionsPlayed).toBe(state.story.actionsPlayed);
    expect((await control(emulator, "DELETE", "story")).status).toBe(200);
    expect(((await (await control(emulator, "GET", "state")).json()) as { story: unknown }).story).toBeNull();
  });

  it("refuses a story with a bad duration, in words", async () => {
    const response = await control(emulator, "POST", "story", { durationSeconds: -1 });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_request" });
  });
});
