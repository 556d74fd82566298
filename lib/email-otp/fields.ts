import { formatYesNo, humanizeFieldName } from "@/lib/field-labels";
import type { EmailOtpConfiguration } from "@/lib/service/schemas";

import type { EmailOtpField } from "./types";

/** Fields whose names suggest a credential are never shown, should the service ever return one. */
const SECRETISH = /secret|key|password|token|credential/i;

type Scalar = string | number | boolean;

/** The fields SERVICE-FACTS and the service show, in the order the page lists them. */
const knownFields = new Map<string, { label: string; format?: (value: Scalar) => string }>([
  ["isActive", { label: "Active" }],
  ["emailProvider", { label: "Email provider" }],
  ["verificationMethod", { label: "Verification method" }],
  ["numberOfAttemptsAllowed", { label: "Attempts allowed" }],
  [
    "otpLifetimeInSeconds",
    { label: "Code lifetime", format: (v) => (typeof v === "number" ? formatSeconds(v) : String(v)) },
  ],
  ["authenticatorId", { label: "Authenticator id" }],
]);
const order = [...knownFields.keys()];
const rank = (name: string) => (knownFields.has(name) ? order.indexOf(name) : order.length);

/** 600 → "10 min (600 s)", 90 → "1 min 30 s (90 s)", 45 → "45 s". */
export function formatSeconds(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${minutes} min${rest ? ` ${rest} s` : ""} (${seconds} s)`;
}

function formatValue(value: Scalar): string {
  return typeof value === "boolean" ? formatYesNo(value) : String(value);
}

/** What the page lists: plain values only, labelled in words; unknown fields keep a readable form of their name. */
export function emailOtpDisplayFields(config: EmailOtpConfiguration): EmailOtpField[] {
  return Object.entries(config)
    .filter(
      (entry): entry is [string, Scalar] =>
        !SECRETISH.test(entry[0]) && ["string", "number", "boolean"].includes(typeof entry[1]),
    )
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([name, value]) => {
      const known = knownFields.get(name);
      return {
        name,
        label: known?.label ?? humanizeFieldName(name),
        value: known?.format ? known.format(value) : formatValue(value),
      };
    });
}
