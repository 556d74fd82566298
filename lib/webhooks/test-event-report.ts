import "server-only";

import { NETWORK_ERRORS } from "@/lib/outbound/network-errors";

import { TEST_EVENT_TIMEOUT_MS, type Answer } from "./test-event-post";
import type { TestEventReport } from "./types";

/** What the answer to "Send a test event" (./test-event.ts) means, in words for the person who pressed the button. */

/** The URL with its token shown as its first and last four characters: enough to tell two URLs apart. */
export function maskToken(text: string, token: string): string {
  return token ? text.replaceAll(token, `${token.slice(0, 4)}…${token.slice(-4)}`) : text;
}

const CHECK_PUBLIC_URL =
  "Check CONSOLE_PUBLIC_URL (or NEXTAUTH_URL when it is not set): it must be the address the service reaches this console at.";

type Interpreted = Pick<TestEventReport, "outcome" | "headline" | "explanation" | "receiverSaid">;

const signatureWords: Record<string, string> = { verified_key1: "with key 1", verified_key2: "with key 2" };

/** What an answer means for the person who pressed the button; `stored` is the row this console holds, if any. */
export function interpret(
  answer: Answer,
  maskedUrl: string,
  token: string,
  stored: { signatureStatus: string } | undefined,
): Interpreted {
  if (answer.kind === "timeout") {
    return {
      outcome: "timeout",
      headline: `No answer within ${TEST_EVENT_TIMEOUT_MS / 1000} s.`,
      explanation: `The address took longer than ${TEST_EVENT_TIMEOUT_MS / 1000} seconds to answer: the receiver, or a proxy or firewall in front of it, is slow or drops the request. The service would give up and retry the same way. ${CHECK_PUBLIC_URL}`,
      receiverSaid: null,
    };
  }
  if (answer.kind === "unreachable") {
    const code = answer.code && NETWORK_ERRORS[answer.code] ? ` (${answer.code})` : "";
    return {
      outcome: "unreachable",
      headline: `Could not reach ${maskedUrl}: ${maskToken(answer.words, token)}${code}.`,
      explanation: `Nothing answered at that address from this server. ${CHECK_PUBLIC_URL}`,
      receiverSaid: null,
    };
  }
  const { status, receiverError: said } = answer;
  const receiverSaid = said ? maskToken(`${said.error}: ${said.errorDescription}`, token) : null;
  if (status >= 200 && status < 300) {
    if (stored) {
      const verified = signatureWords[stored.signatureStatus];
      return {
        outcome: "delivered",
        headline: verified
          ? `Delivered: the receiver verified it ${verified} and stored it.`
          : "Delivered and stored, but not verified: the connection holds no server key now.",
        explanation:
          "The event is in the webhook log with a Test badge; test events are left out of the overview's counts and charts.",
        receiverSaid,
      };
    }
    return {
      outcome: "elsewhere",
      headline: `The address answered HTTP ${status}, but the event is not in this console's log.`,
      explanation: `Something else answers at that address: another console, or a proxy that answers for it. The service's real events would go there too. ${CHECK_PUBLIC_URL}`,
      receiverSaid,
    };
  }
  if (status >= 300 && status < 400) {
    const to = answer.location ? ` to ${maskToken(answer.location, token)}` : "";
    return {
      outcome: "redirect",
      headline: `A redirect (HTTP ${status}${to}): a proxy or the wrong scheme (http vs https) is in the way.`,
      explanation: `The service does not follow redirects, so its events would be lost. ${CHECK_PUBLIC_URL}`,
      receiverSaid,
    };
  }
  return { outcome: "refused", ...refusal(status, said?.errorDescription ?? null), receiverSaid };
}

/** A 4xx or 5xx in words; the receiver's `{ error, errorDescription }` tells its own refusals from a proxy's. */
function refusal(status: number, description: string | null): { headline: string; explanation: string } {
  if (status === 401 && description?.includes("timestamp")) {
    return {
      headline: "Refused (HTTP 401): the signature's timestamp is outside the receiver's 5-minute window.",
      explanation: "The receiver's clock and this server's differ by more than 5 minutes: keep both in time (NTP).",
    };
  }
  if (status === 401) {
    return {
      headline: "Refused (HTTP 401): bad signature.",
      explanation: `The key this console holds does not match what the receiver at that URL checks: the URL probably reaches another console (one that holds another key for this token), or a proxy changes the body on the way. ${CHECK_PUBLIC_URL}`,
    };
  }
  if (status === 404 && description !== null) {
    return {
      headline: "Refused (HTTP 404): unknown webhook URL.",
      explanation: `The receiver at that address does not know this URL's token, so it is not this console: CONSOLE_PUBLIC_URL probably points at another console, or the URL was just regenerated. ${CHECK_PUBLIC_URL}`,
    };
  }
  if (status === 404) {
    return {
      headline: "Not found (HTTP 404): no webhook receiver answers at that address.",
      explanation: `A web server answered, but not a console's receiver (another site, or a proxy that does not pass /api/webhooks/ on). ${CHECK_PUBLIC_URL}`,
    };
  }
  if (status === 503 && description !== null) {
    return {
      headline: "The receiver could not store it (HTTP 503).",
      explanation:
        "The console that received it could not write to its database; the service retries such deliveries. Look at that console's logs.",
    };
  }
  if (status >= 500) {
    return {
      headline: `A server in the way failed (HTTP ${status}).`,
      explanation: `A proxy or load balancer in front of the console answered instead of the receiver: the console behind it may be down, or not reachable from it. ${CHECK_PUBLIC_URL}`,
    };
  }
  return {
    headline: `Refused (HTTP ${status}).`,
    explanation: description
      ? "The receiver refused the request; its words are below."
      : `Something at that address refused the request. ${CHECK_PUBLIC_URL}`,
  };
}
