import { handleGetEvent } from "@/lib/webhooks/api";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleGetEvent(request, (await params).id);
}
