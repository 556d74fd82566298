import { notAWebhookUrl, webhookError } from "@/lib/webhooks/errors";
import { receiveWebhook } from "@/lib/webhooks/receive";

type Context = { params: Promise<{ path?: string[] }> };

/**
 * Every request under /api/webhooks lands here, so each answer is the receiver's JSON: a POST to
 * /api/webhooks/{token} (a trailing slash too, see proxy.ts) is a delivery; any other path is 404 and any
 * other method 405. All of the receiver's logic (and its tests) is in lib/webhooks/receive.ts.
 */
export async function POST(request: Request, { params }: Context) {
  const { path = [] } = await params;
  if (path.length !== 1) {
    await request.body?.cancel().catch(() => {});
    return notAWebhookUrl();
  }
  return receiveWebhook(request, { token: path[0] });
}

function methodNotAllowed(request: Request) {
  return webhookError(405, `A webhook URL accepts POST only, not ${request.method}.`, { Allow: "POST" });
}

export const GET = methodNotAllowed;
export const HEAD = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
export const OPTIONS = methodNotAllowed;
