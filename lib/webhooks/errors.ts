/**
 * The answers of a webhook URL other than 200: `{ error, errorDescription }`, the service's own error
 * shape (spec 2.3), as JSON. No server imports: proxy.ts answers a path that cannot be decoded with it.
 */
const errorCodes: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  415: "unsupported_media_type",
  503: "unavailable",
};

export function webhookJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

export function webhookError(status: number, errorDescription: string, headers?: Record<string, string>): Response {
  return webhookJson(status, { error: errorCodes[status] ?? "invalid_request", errorDescription }, headers);
}

/** What a path that is not a webhook URL is answered. */
export const notAWebhookUrl = () => webhookError(404, "Webhook URLs have the form /api/webhooks/{token}.");
