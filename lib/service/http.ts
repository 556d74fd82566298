import "server-only";
import type { z } from "zod";
import type { Region } from "@/lib/connections/regions";
import { logger } from "@/lib/logger";
import { managementBaseUrl } from "./regions";
import type { ServiceResult } from "./result";

/** What the client needs of a connection: its region and its management key (decrypted, server-only). */
export type ManagementCredentials = { region: Region; managementKey: string };

export type RequestOptions = {
  /** Per attempt; 10 s unless a test needs less. */
  timeoutMs?: number;
  /** Base of the exponential back-off between GET retries. */
  retryDelayMs?: number;
};

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRY_DELAY_MS = 300;
/** GETs are retried twice (three attempts), as the public SDKs do. */
const GET_ATTEMPTS = 3;

/** HTTP basic, username = management key, empty password (spec 5.1). */
function basicAuth(key: string): string {
  return `Basic ${Buffer.from(`${key}:`, "utf8").toString("base64")}`;
}

type Attempt = { response: Response; body: unknown } | { error: "timeout" | "network" };

async function attempt(url: string, method: "GET" | "DELETE", key: string, requestId: string, timeoutMs: number): Promise<Attempt> {
  try {
    const response = await fetch(url, {
      method,
      headers: { Authorization: basicAuth(key), Accept: "application/json", "X-Request-Id": requestId },
      signal: AbortSignal.timeout(timeoutMs),
      cache: "no-store",
      redirect: "error",
    });
    const text = await response.text();
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { response, body };
  } catch (error) {
    const name = (error as Error).name;
    return { error: name === "TimeoutError" || name === "AbortError" ? "timeout" : "network" };
  }
}

function retryAfter(response: Response): number | null {
  const value = Number(response.headers.get("retry-after"));
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * One management API call. GET is retried twice with back-off on network errors and 5xx;
 * DELETE is sent once, since a retry after a lost answer could act twice. Timeouts are not
 * retried, so a page waits at most one timeout. The key goes into the Authorization header only:
 * never into a URL, a log line or an error.
 */
export async function managementRequest<T>(
  creds: ManagementCredentials,
  method: "GET" | "DELETE",
  path: string,
  schema: z.ZodType<T>,
  options: RequestOptions = {},
): Promise<ServiceResult<T>> {
  const url = `${managementBaseUrl(creds.region)}${path}`;
  const requestId = crypto.randomUUID();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const attempts = method === "GET" ? GET_ATTEMPTS : 1;

  let outcome: Attempt = { error: "network" };
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, retryDelayMs * 2 ** (i - 1)));
    outcome = await attempt(url, method, creds.managementKey, requestId, timeoutMs);
    const retryable = "error" in outcome ? outcome.error === "network" : outcome.response.status >= 500;
    if (!retryable) break;
  }

  const log = { method, path, region: creds.region, requestId };
  if ("error" in outcome) {
    logger.warn("service request failed", { ...log, reason: outcome.error });
    return { kind: "unavailable", status: null, reason: outcome.error, requestId };
  }
  const { response, body } = outcome;
  const status = response.status;
  const serviceRequestId = response.headers.get("x-request-id") ?? requestId;
  logger.info("service request", { ...log, status });
  if (status >= 500) return { kind: "unavailable", status, reason: "server_error", requestId: serviceRequestId };
  if (status === 401) return { kind: "unauthorized", status, requestId: serviceRequestId };
  if (status === 404) return { kind: "not_found", status, requestId: serviceRequestId };
  if (status === 429) return { kind: "rate_limited", status, retryAfterSeconds: retryAfter(response), requestId: serviceRequestId };
  if (status !== 200) {
    return { kind: "invalid_response", status, detail: `unexpected status ${status}`, requestId: serviceRequestId };
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ");
    return { kind: "invalid_response", status, detail, requestId: serviceRequestId };
  }
  return { kind: "ok", status, data: parsed.data, requestId: serviceRequestId };
}
