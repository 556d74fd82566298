import "server-only";

import type { z } from "zod";

import { env } from "@/lib/env";
import { logger } from "@/lib/logger";

import { managementBaseUrl } from "./base-urls";
import type { Region } from "./regions";
import type { ServiceResult } from "./result";

/** What the client needs of a connection: its region and its management key (decrypted, server-only). */
export type ManagementCredentials = { region: Region; managementKey: string };

export type RequestOptions = {
  /** Per attempt; SERVICE_TIMEOUT_MS (10 s) unless a test needs less. */
  timeoutMs?: number;
  /** Base of the exponential back-off between GET retries. */
  retryDelayMs?: number;
};

const DEFAULT_RETRY_DELAY_MS = 300;
/** GETs are retried twice (three attempts), as the public SDKs do. */
const GET_ATTEMPTS = 3;

type Attempt = { response: Response; body: unknown } | { error: "timeout" | "network" };

type HttpMethod = "GET" | "POST" | "DELETE";

async function attempt(
  url: string,
  method: HttpMethod,
  authorization: string,
  requestId: string,
  timeoutMs: number,
  body?: unknown,
): Promise<Attempt> {
  try {
    const response = await fetch(url, {
      method,
      headers: {
        Authorization: authorization,
        Accept: "application/json",
        "X-Request-Id": requestId,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      cache: "no-store",
      redirect: "error",
    });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { response, body: parsed };
  } catch (error) {
    const name = (error as Error).name;
    return { error: name === "TimeoutError" || name === "AbortError" ? "timeout" : "network" };
  }
}

function retryAfter(response: Response): number | null {
  const value = Number(response.headers.get("retry-after"));
  return Number.isFinite(value) && value > 0 ? value : null;
}

export type ServiceRequest = {
  region: Region;
  method: HttpMethod;
  /** The full URL; logged only as `path`. */
  url: string;
  path: string;
  /** The Authorization header value; never logged. */
  authorization: string;
  body?: unknown;
};

/**
 * One call to the service. A GET is retried twice with back-off on network errors and 5xx; POST and DELETE are sent
 * once (a retry after a lost answer could act twice); timeouts are not retried. Credentials go into the
 * Authorization header only: never into a URL, a log line or an error.
 */
export async function serviceRequest<T>(
  request: ServiceRequest,
  schema: z.ZodType<T>,
  options: RequestOptions = {},
): Promise<ServiceResult<T>> {
  const requestId = crypto.randomUUID();
  const timeoutMs = options.timeoutMs ?? env().SERVICE_TIMEOUT_MS;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const attempts = request.method === "GET" ? GET_ATTEMPTS : 1;

  let outcome: Attempt = { error: "network" };
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, retryDelayMs * 2 ** (i - 1)));
    outcome = await attempt(request.url, request.method, request.authorization, requestId, timeoutMs, request.body);
    const retryable = "error" in outcome ? outcome.error === "network" : outcome.response.status >= 500;
    if (!retryable) break;
  }

  const log = { method: request.method, path: request.path, region: request.region, requestId };
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
  if (status === 429)
    return { kind: "rate_limited", status, retryAfterSeconds: retryAfter(response), requestId: serviceRequestId };
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

/** HTTP basic with the key as username and an empty password: the management and server APIs (spec 5.1). */
export function basicAuth(key: string): string {
  return `Basic ${Buffer.from(`${key}:`, "utf8").toString("base64")}`;
}

/** A management API call (`{base}/management`), authenticated with the management key. */
export function managementRequest<T>(
  creds: ManagementCredentials,
  method: "GET" | "DELETE",
  path: string,
  schema: z.ZodType<T>,
  options: RequestOptions = {},
): Promise<ServiceResult<T>> {
  const url = `${managementBaseUrl(creds.region)}${path}`;
  return serviceRequest(
    { region: creds.region, method, url, path, authorization: basicAuth(creds.managementKey) },
    schema,
    options,
  );
}
