import { receiveWebhook } from "@/lib/webhooks/receive";

/** The webhook receiver; all of its logic (and its tests) is in lib/webhooks/receive.ts. */
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return receiveWebhook(request, { token });
}
