import "server-only";

import { NETWORK_ERRORS } from "@/lib/outbound/network-errors";

import { receiverErrorSchema } from "./schemas";

/**
 * The POST of "Send a test event" (./test-event.ts), as the service sends one, and what came back: an
 * answer with its status, no answer in time, or a network error in words.
 */

export const TEST_EVENT_TIMEOUT_MS = 5_000;
/** The most of an answer's body read: the receiver's error is a line of JSON; anything else is not read whole. */
const MAX_ANSWER_BYTES = 16 * 1024;

export type Answer =
  | {
      kind: "answered";
      status: number;
      location: string | null;
      receiverError: { error: string; errorDescription: string } | null;
    }
  | { kind: "timeout" }
  | { kind: "unreachable"; code: string | undefined; words: string };

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}

function receiverError(text: string): { error: string; errorDescription: string } | null {
  try {
    const parsed = receiverErrorSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A failed fetch in words: its system error code (undici puts it in `cause`, or in an AggregateError's
 * `errors`) with what the code means, else the innermost message (never a stack).
 */
export function describeNetworkError(error: unknown, url: string): { code: string | undefined; words: string } {
  let current: unknown = error;
  let message = "";
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const e = current as { code?: unknown; errors?: unknown[]; cause?: unknown; message?: unknown };
    if (typeof e.code === "string")
      return { code: e.code, words: NETWORK_ERRORS[e.code] ?? `a network error (${e.code})` };
    if (typeof e.message === "string" && e.message) message = e.message;
    current = e.cause ?? e.errors?.[0];
  }
  // fetch refuses the ports of other protocols (1, 9, 25, 6000, ...) before connecting:
  // https://fetch.spec.whatwg.org/#bad-port
  if (message === "bad port")
    return {
      code: undefined,
      words: `port ${new URL(url).port} is one that fetch refuses to use (reserved for another protocol); use another port`,
    };
  return { code: undefined, words: message ? `a network error (${message.slice(0, 200)})` : "a network error" };
}

/** One POST as the service sends it: JSON, X-Signature-V2, no redirects followed, a deadline. */
export async function postTestEvent(url: string, body: string, signature: string): Promise<Answer> {
  const signal = AbortSignal.timeout(TEST_EVENT_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Signature-V2": signature,
        "User-Agent": "tenant-console-test-event",
      },
      body,
      redirect: "manual",
      cache: "no-store",
      signal,
    });
    const text = await readBounded(response);
    return {
      kind: "answered",
      status: response.status,
      location: response.headers.get("location"),
      receiverError: receiverError(text),
    };
  } catch (error) {
    if (signal.aborted) return { kind: "timeout" };
    return { kind: "unreachable", ...describeNetworkError(error, url) };
  }
}
