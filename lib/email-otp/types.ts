import type { ServiceFailureKind } from "@/lib/service/result";

/** Client-safe shapes of the email OTP page. */
export type EmailOtpField = { name: string; value: string };

export type EmailOtpStatus =
  | { kind: "present"; fields: EmailOtpField[] }
  | { kind: "absent" }
  | { kind: "failure"; failure: ServiceFailureKind; httpStatus: number | null; message: string };

export type DeleteEmailOtpResult =
  | { ok: true; outcome: "deleted" | "none"; message: string }
  | { ok: false; error: string; failure?: ServiceFailureKind };
