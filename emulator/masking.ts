/** `jane@example.com` → `j•••@example.com` */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/** `+15551231234` → `+•••••••1234` */
export function maskPhoneNumber(phoneNumber: string): string {
  const digits = phoneNumber.replace(/\D/g, "");
  const hidden = Math.max(digits.length - 4, 0);
  return `+${"•".repeat(hidden)}${digits.slice(hidden)}`;
}
