/** How support users see personal data in the log (page, API and exports). Client-safe. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${email[0]}•••${email.slice(at)}`;
}

export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return `${phone.startsWith("+") ? "+" : ""}•••••••${digits.slice(-4)}`;
}

const maskers = new Map<string, (value: string) => string>([
  ["email", maskEmail],
  ["phoneNumber", maskPhone],
]);

/**
 * The raw body as support users see it: every value under an `email` or `phoneNumber` key masked, at any depth
 * and in every event type, found by structure rather than by value (a sender may escape characters,
 * `\u0040` for `@`, so the stored bytes need not contain the value as written). The result is
 * re-serialised JSON; a body that is not JSON is withheld, never shown unmasked.
 */
export function maskRawBody(rawBody: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return JSON.stringify({ withheld: "This body is not JSON, so personal data in it cannot be masked." });
  }
  return JSON.stringify(parsed, (key, value: unknown) => {
    const mask = maskers.get(key);
    return mask ? maskEvery(value, mask) : value;
  });
}

/** An `email` or `phoneNumber` may hold a list, an object or a number in event kinds we do not know. */
function maskEvery(value: unknown, mask: (value: string) => string): unknown {
  if (typeof value === "string" || typeof value === "number") return mask(String(value));
  if (Array.isArray(value)) return value.map((item) => maskEvery(item, mask));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskEvery(v, mask)]));
  return value;
}
