import type { APIRequestContext, Page, Request } from "@playwright/test";

/** A server action POST as the browser sent it, so a test can replay it with another user's cookies. */
export type CapturedAction = { url: string; headers: Record<string, string>; body: string };

export function captureNextServerAction(page: Page): Promise<CapturedAction> {
  return page
    .waitForRequest((r: Request) => r.method() === "POST" && Boolean(r.headers()["next-action"]))
    .then(async (r) => {
      const all = await r.allHeaders();
      const keep = ["next-action", "content-type", "accept", "next-router-state-tree", "origin"];
      return {
        url: r.url(),
        headers: Object.fromEntries(keep.filter((k) => all[k]).map((k) => [k, all[k]!])),
        body: r.postData() ?? "",
      };
    });
}

export async function replayServerAction(
  request: APIRequestContext,
  action: CapturedAction,
): Promise<{ status: number; text: string }> {
  const response = await request.post(action.url, { headers: action.headers, data: action.body });
  return { status: response.status(), text: await response.text() };
}
