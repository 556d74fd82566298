import type { DeliveryFaultMode, DeliveryFaults } from "./faults";
import type { AuthenticatorInput, VerificationMethod } from "./seed";
import type { ServiceState } from "./state";

/**
 * The demo story (docs/demo.md): the emulator expires authenticators by itself across methods, platforms, users and
 * tenants, some reported late, and plays two incidents once (a rotated key's burst, a receiver outage). A pure function
 * of its start, tenants and an index on the virtual clock: the same every run, faster when the clock is advanced.
 */

/**
 * Seconds from the story's start; the outage is shorter than the retries' span (3 × 30 s), so every event gets through.
 */
export const STORY_INCIDENTS = {
  badSignatures: { atSeconds: 20, seconds: 10, burst: 3 },
  outage: { atSeconds: 40, seconds: 60 },
} as const;

/** Seconds between one expiry and the next, repeated: "every few seconds", not a metronome. */
const GAPS = [2, 3, 4, 3, 2, 5, 3, 2] as const;
const CYCLE_SECONDS = GAPS.reduce((sum, gap) => sum + gap, 0);
/** How long a fresh authenticator stays current before it expires. */
const FRESH_LIFETIME_SECONDS = 2;

/** Weighted by how common each method is; 13 entries, so with 2 tenants each one sees every method. */
const METHODS: readonly VerificationMethod[] = [
  "PUSH",
  "SMS",
  "EMAIL_OTP",
  "PASSKEY",
  "PUSH",
  "AUTHENTICATOR_APP",
  "SMS",
  "SECURITY_KEY",
  "PUSH",
  "EMAIL_OTP",
  "WHATSAPP",
  "PASSKEY",
  "EMAIL_MAGIC_LINK",
];

/**
 * Lateness (seconds between the expiry and the story reporting it), by index modulo 20, spread over
 * the overview's delay buckets; every 40th is over 24 h. Any other index expires moments after it is added.
 */
const LATENESS: Record<number, readonly [number, number]> = {
  3: [120, 540], // 1–10 min
  6: [900, 3_000], // 10–60 min
  9: [4_000, 20_000], // 1–6 h
  13: [25_000, 80_000], // 6–24 h
  16: [5_400, 18_000], // 1–6 h
};
const VERY_LATE: readonly [number, number] = [88_000, 100_000]; // > 24 h

const PEOPLE = ["alice", "bob", "carol", "dieter", "elena", "farid", "greta", "hiro", "ines", "jonas"] as const;

/** Passkey providers by platform: their display name and AAGUID (public values). */
const PASSKEY_PROVIDERS = {
  IOS: { credentialName: "iCloud Keychain", aaguid: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd" },
  ANDROID: { credentialName: "Google Password Manager", aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4" },
  none: { credentialName: "1Password", aaguid: "bada5566-a7aa-401f-bd96-45619a55120d" },
} as const;
const SECURITY_KEY_AAGUID = "cb69481e-8ff7-4039-93ec-0a2729a154a8"; // YubiKey 5 series

export type StoryAction =
  | {
      kind: "expiry";
      atMs: number;
      tenantId: string;
      userId: string;
      authenticator: AuthenticatorInput;
      lateSeconds: number;
    }
  | { kind: "delivery_fault"; atMs: number; tenantId: string; mode: DeliveryFaultMode; seconds: number };

export interface StoryPlan {
  startMs: number;
  tenantIds: readonly string[];
  /** Nothing happens from here on (virtual ms); null: the story goes on until stopped. */
  untilMs: number | null;
}

/** A deterministic number in [0, 1) for an index and a salt (mulberry32 of their mix). */
function random(index: number, salt: number): number {
  let t = (Math.imul(index + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}

const pick = <T>(list: readonly T[], index: number, salt: number): T =>
  list[Math.floor(random(index, salt) * list.length)]!;
const within = ([low, high]: readonly [number, number], index: number, salt: number) =>
  Math.round(low + random(index, salt) * (high - low));
const capitalised = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** Seconds from the start at which regular expiry `index` happens. */
export function expiryOffsetSeconds(index: number): number {
  const cycles = Math.floor(index / GAPS.length);
  let offset = cycles * CYCLE_SECONDS;
  for (let i = 0; i < index % GAPS.length; i++) offset += GAPS[i]!;
  return offset;
}

/** The first regular expiry index at or after `seconds` from the start. */
function firstIndexFrom(seconds: number): number {
  let index = Math.max(0, Math.floor(seconds / CYCLE_SECONDS) * GAPS.length);
  while (expiryOffsetSeconds(index) < seconds) index++;
  return index;
}

function latenessSeconds(index: number): number {
  if (index % 40 === 19) return within(VERY_LATE, index, 1);
  const range = LATENESS[index % 20];
  return range ? within(range, index, 1) : 0;
}

/** The authenticator of story item `index` (a regular expiry, or a burst one with a negative index). */
function storyAuthenticator(
  index: number,
  atMs: number,
  lateSeconds: number,
): { userId: string; authenticator: AuthenticatorInput } {
  const method = METHODS[((index % METHODS.length) + METHODS.length) % METHODS.length]!;
  const person = pick(PEOPLE, index, 2);
  const name = capitalised(person);
  const platform = pick(["IOS", "ANDROID", "none"] as const, index, 3);
  const expiresAtMs = lateSeconds > 0 ? atMs - lateSeconds * 1000 : atMs + FRESH_LIFETIME_SECONDS * 1000;
  const createdAtMs = expiresAtMs - within([2, 90], index, 4) * 86_400_000;
  const authenticator: AuthenticatorInput = {
    userAuthenticatorId: `ua_${person}_${method.toLowerCase()}_${index < 0 ? `burst${-index}` : index}`,
    verificationMethod: method,
    createdAt: new Date(createdAtMs).toISOString(),
    expiresAt: new Date(expiresAtMs).toISOString(),
    lastVerifiedAt: new Date(createdAtMs + within([1, 20], index, 5) * 3_600_000).toISOString(),
  };
  const device = platform === "ANDROID" ? `${name}'s Pixel` : `${name}'s iPhone`;
  const phone = `+1555555${String(1000 + PEOPLE.indexOf(person) * 37).padStart(4, "0")}`;
  const credentialId = Buffer.from(`story-${index}-${person}`).toString("base64url");
  switch (method) {
    case "PUSH":
      Object.assign(authenticator, { deviceName: device, devicePlatform: platform === "none" ? "IOS" : platform });
      break;
    case "PASSKEY": {
      const provider = PASSKEY_PROVIDERS[platform];
      Object.assign(
        authenticator,
        { credentialId, ...provider },
        platform === "none" ? {} : { deviceName: device, devicePlatform: platform },
      );
      break;
    }
    case "SECURITY_KEY":
      Object.assign(authenticator, { credentialId, aaguid: SECURITY_KEY_AAGUID, deviceName: "YubiKey 5C NFC" });
      break;
    case "AUTHENTICATOR_APP":
      if (platform !== "none") Object.assign(authenticator, { deviceName: device, devicePlatform: platform });
      break;
    case "SMS":
    case "WHATSAPP":
      authenticator.phoneNumber = phone;
      break;
    case "EMAIL_OTP":
    case "EMAIL_MAGIC_LINK":
      authenticator.email = `${person}@example.com`;
      break;
  }
  return { userId: `usr_${person}`, authenticator };
}

/**
 * The incidents, at their fixed offsets: on the first tenant the rotated key, on the second (or only) one the outage.
 */
function incidentActions(plan: StoryPlan): StoryAction[] {
  const [first, second = first] = plan.tenantIds;
  if (!first || !second) return [];
  const { badSignatures, outage } = STORY_INCIDENTS;
  const badAtMs = plan.startMs + badSignatures.atSeconds * 1000;
  const burst = Array.from({ length: badSignatures.burst }, (_, k): StoryAction => {
    const { userId, authenticator } = storyAuthenticator(-(k + 1), badAtMs, 0);
    return { kind: "expiry", atMs: badAtMs, tenantId: first, userId, authenticator, lateSeconds: 0 };
  });
  return [
    { kind: "delivery_fault", atMs: badAtMs, tenantId: first, mode: "bad_signature", seconds: badSignatures.seconds },
    ...burst,
    {
      kind: "delivery_fault",
      atMs: plan.startMs + outage.atSeconds * 1000,
      tenantId: second,
      mode: "outage",
      seconds: outage.seconds,
    },
  ];
}

/** Everything the story does at virtual instants in [fromMs, toMs), in order. */
export function storyActionsBetween(plan: StoryPlan, fromMs: number, toMs: number): StoryAction[] {
  const endMs = plan.untilMs === null ? toMs : Math.min(toMs, plan.untilMs);
  if (plan.tenantIds.length === 0 || endMs <= fromMs) return [];
  const actions = incidentActions(plan).filter((action) => action.atMs >= fromMs && action.atMs < endMs);
  for (let index = firstIndexFrom((fromMs - plan.startMs) / 1000); ; index++) {
    const atMs = plan.startMs + expiryOffsetSeconds(index) * 1000;
    if (atMs >= endMs) break;
    const lateSeconds = latenessSeconds(index);
    const tenantId = plan.tenantIds[index % plan.tenantIds.length]!;
    actions.push({ kind: "expiry", atMs, tenantId, lateSeconds, ...storyAuthenticator(index, atMs, lateSeconds) });
  }
  // Stable: at one instant the fault comes before its burst, as listed.
  return actions.sort((a, b) => a.atMs - b.atMs);
}

export interface StoryOptions {
  /** Stop after this many seconds of virtual time (the tour spec plays a bounded story); default: never. */
  durationSeconds?: number;
}

export interface StorySummary {
  startedAt: string;
  until: string | null;
  tenantIds: readonly string[];
  actionsPlayed: number;
}

/** Plays the story into the service state as the virtual clock passes its instants. */
export class DemoStory {
  private playedUntilMs: number;
  private actionsPlayed = 0;

  constructor(
    private readonly plan: StoryPlan,
    private readonly state: ServiceState,
    private readonly deliveryFaults: DeliveryFaults,
  ) {
    this.playedUntilMs = plan.startMs;
  }

  static start(
    state: ServiceState,
    deliveryFaults: DeliveryFaults,
    nowMs: number,
    options: StoryOptions = {},
  ): DemoStory {
    const untilMs = options.durationSeconds === undefined ? null : nowMs + options.durationSeconds * 1000;
    const plan = { startMs: nowMs, tenantIds: state.tenants.map((tenant) => tenant.id), untilMs };
    return new DemoStory(plan, state, deliveryFaults);
  }

  /**
   * Applies every action due up to `nowMs` (inclusive) not applied yet; the sweep that follows reports the expiries.
   */
  play(nowMs: number): void {
    if (nowMs < this.playedUntilMs) return;
    const actions = storyActionsBetween(this.plan, this.playedUntilMs, nowMs + 1);
    this.playedUntilMs = nowMs + 1;
    for (const action of actions) {
      const tenant = this.state.tenantById(action.tenantId);
      if (!tenant) continue;
      if (action.kind === "expiry") this.state.addAuthenticator(tenant, action.userId, action.authenticator);
      else this.deliveryFaults.set(tenant.id, action.mode, action.atMs, action.seconds);
    }
    this.actionsPlayed += actions.length;
  }

  summary(): StorySummary {
    const { startMs, untilMs, tenantIds } = this.plan;
    return {
      startedAt: new Date(startMs).toISOString(),
      until: untilMs === null ? null : new Date(untilMs).toISOString(),
      tenantIds,
      actionsPlayed: this.actionsPlayed,
    };
  }
}
