/** What every service call returns: a result to branch on, never a thrown error. Client-safe types. */
export type ServiceFailureKind = "unauthorized" | "not_found" | "invalid_response" | "rate_limited" | "unavailable";

export type ServiceResult<T> =
  | { kind: "ok"; status: number; data: T; requestId: string }
  | { kind: "unauthorized"; status: 401; requestId: string }
  | { kind: "not_found"; status: 404; requestId: string }
  /** The status or body did not match the spec; `detail` names the mismatch, never echoes a key. */
  | { kind: "invalid_response"; status: number; detail: string; requestId: string }
  | { kind: "rate_limited"; status: 429; retryAfterSeconds: number | null; requestId: string }
  /** 5xx, timeout or network error; status is absent when no response arrived. */
  | { kind: "unavailable"; status: number | null; reason: "server_error" | "timeout" | "network"; requestId: string };

export type ServiceFailure = Exclude<ServiceResult<unknown>, { kind: "ok" }>;
