/** Forwarding's vocabulary, client-safe and free of zod (the forms and the destination list import it). */

export const SIGNING_MODES = {
  service: "As the service (the service's own signature, with the connection's server key)",
  standard_webhooks: "Standard Webhooks (a secret of this destination)",
} as const;
export type SigningModeName = keyof typeof SIGNING_MODES;
export const SIGNING_MODE_VALUES = Object.keys(SIGNING_MODES) as SigningModeName[];

/** Why "as the service" cannot be chosen: said by the form and by the server alike. */
export const SERVICE_SIGNING_NEEDS_SERVER_KEY =
  "Signing as the service needs the connection's server key: add it in Settings and keys, or choose Standard Webhooks.";

/** Why a destination signing as the service cannot take unverified events: said by the form and by the server alike. */
export const SERVICE_SIGNING_TAKES_ONLY_VERIFIED =
  "A destination signing as the service gets only the events the console verified: its signature vouches for the sender. Choose Standard Webhooks to include the others.";

/** What a destination's URL may be, as the add and edit forms say it (docs/forwarding.md, "Destinations"). */
export const DESTINATION_URL_HINT =
  "Starts with https://, with no user name or password in it, and reaches a public address. Plain http:// and internal addresses only for hosts the console's operator allowed for testing (see “Destinations” in the forwarding guide, docs/forwarding.md).";

/** The header that carries the event id, the same across attempts and replays, in both signing modes. */
export const EVENT_ID_HEADER = "webhook-id";

/**
 * The header that carries the console's verdict on the event: `verified` or `unsigned`
 * (lib/destinations/verdict.ts).
 */
export const VERIFICATION_HEADER = "webhook-verification";

/** A destination's optional cap on deliveries started per second (the form, the CLI, and the schema's bounds). */
export const MAX_PER_SECOND_LIMIT = 10_000;

/** How long a rotated Standard Webhooks secret still signs beside the new one, unless the admin picks another period. */
export const PREVIOUS_SECRET_HOURS = 24;
/** The longest an admin may keep a rotated secret signing: a week. */
export const MAX_PREVIOUS_SECRET_HOURS = 7 * 24;
/** The periods the rotation dialog offers, in hours (0: the old secret stops at once). */
export const PREVIOUS_SECRET_CHOICES = [0, 1, 24, 72, MAX_PREVIOUS_SECRET_HOURS] as const;

/** A destination page's attempts filter: delivered (2xx) or failed (anything else). */
export const ATTEMPT_OUTCOMES = ["delivered", "failed"] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];
/** Attempts per page on a destination's page. */
export const ATTEMPTS_PAGE_SIZE = 25;

/** A destination failing for this long is paused (events queue, nothing is sent until resumed). */
export const AUTO_PAUSE_HOURS = 24;

/** The waits between attempts: the 7th failed attempt (about 20 h after the first) fails the delivery. */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 3_600, 6 * 3_600, 12 * 3_600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/**
 * The wait before the next attempt after `attempts` failed ones, ±20 % so a queue that failed together does not
 * retry together.
 */
export function retryDelaySeconds(attempts: number, random = Math.random): number {
  const base = RETRY_DELAYS_SECONDS[Math.min(attempts, RETRY_DELAYS_SECONDS.length) - 1]!;
  return Math.round(base * (0.8 + 0.4 * random()));
}

export const MAX_DESTINATIONS_PER_CONNECTION = 20;

/**
 * The circuit breaker: this many failed attempts in a row trip it; then one delivery at a time is sent as a probe,
 * after BREAKER_FIRST_PROBE_SECONDS and then waits that double up to BREAKER_MAX_PROBE_SECONDS, until one is
 * delivered. The 24-hour pause stays the last step (docs/forwarding.md, "One destination never holds up another").
 */
export const BREAKER_THRESHOLD = 5;
export const BREAKER_FIRST_PROBE_SECONDS = 30;
export const BREAKER_MAX_PROBE_SECONDS = 600;

/**
 * A rate cap's slots are this much more than 1/max_per_second apart: a send that starts late beside one on time
 * would otherwise put one more than the cap into some second. A capped destination gets max_per_second /
 * RATE_SPACING a second, which the replay dialog's estimate uses.
 */
export const RATE_SPACING = 1.05;

/** A tripped breaker in words, on the cards, the destination's page and the log's drawer. */
export const BREAKER_WORDS = `Paused after ${BREAKER_THRESHOLD} failed attempts`;
