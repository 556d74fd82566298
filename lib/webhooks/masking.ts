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

/** Replaces the values inside a raw JSON body without re-serialising it (the rest stays byte for byte). */
export function maskRawBody(rawBody: string, values: { email: string | null; phoneNumber: string | null }): string {
  let masked = rawBody;
  if (values.email) masked = masked.split(JSON.stringify(values.email).slice(1, -1)).join(maskEmail(values.email));
  if (values.phoneNumber) masked = masked.split(JSON.stringify(values.phoneNumber).slice(1, -1)).join(maskPhone(values.phoneNumber));
  return masked;
}
