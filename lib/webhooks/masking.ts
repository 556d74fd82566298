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
 * The raw body as support users see it: every value under an `email` or `phoneNumber` key masked, found by structure
 * and not by value (a sender may escape `@` as `\u0040`), re-serialised. A body that is not JSON is withheld, never
 * shown unmasked.
 */
export function maskRawBody(rawBody: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return JSON.stringify({ withheld: "This body is not JSON, so personal data in it cannot be masked." });
  }
  return serialiseMasked(parsed);
}

type Mask = (value: string) => string;
/** Output still to write: literal text, or a value to serialise (masked when it sits under a masked key). */
type Work = string | { value: unknown; mask: Mask | undefined };

/**
 * `JSON.stringify` of a parsed body with every string or number under an `email` or `phoneNumber` key masked (the
 * outermost such key decides). Iterative: a body nested thousands deep parses, but a recursive walk overflows the
 * stack on it. Primitives and keys go through `JSON.stringify`, so the escaping is its own.
 */
function serialiseMasked(root: unknown): string {
  const out: string[] = [];
  const stack: Work[] = [{ value: root, mask: undefined }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    const { value, mask } = item;
    if (mask && (typeof value === "string" || typeof value === "number")) {
      out.push(JSON.stringify(mask(String(value))));
    } else if (value && typeof value === "object") {
      const isArray = Array.isArray(value);
      const entries: [string, unknown][] = isArray ? value.map((v, i) => [String(i), v]) : Object.entries(value);
      // Pushed in reverse, so the first entry is popped (written) first.
      stack.push(isArray ? "]" : "}");
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, v] = entries[i]!;
        stack.push({ value: v, mask: mask ?? (isArray ? undefined : maskers.get(key)) });
        if (!isArray) stack.push(`${JSON.stringify(key)}:`);
        if (i > 0) stack.push(",");
      }
      stack.push(isArray ? "[" : "{");
    } else {
      out.push(JSON.stringify(value));
    }
  }
  return out.join("");
}
