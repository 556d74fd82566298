import { handleGetEvent } from "@/lib/webhooks/api";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleGetEvent((await params).id);
}
