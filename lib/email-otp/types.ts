import type { ActionFailure } from "@/lib/call-action";
import type { ServiceFailureKind } from "@/lib/service/result";

/** Client-safe shapes of the email OTP page. */
/** `name` is the service's field name; `label` and `value` are what the page shows. */
export type EmailOtpField = { name: string; label: string; value: string };

export type EmailOtpStatus =
  | { kind: "present"; fields: EmailOtpField[] }
  | { kind: "absent" }
  | { kind: "failure"; failure: ServiceFailureKind; httpStatus: number | null; message: string };

export type DeleteEmailOtpResult =
  { ok: true; outcome: "deleted" | "none"; message: string } | (ActionFailure & { failure?: ServiceFailureKind });
