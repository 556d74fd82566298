import { handleCancelReplay } from "@/lib/destinations/api-replays";

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleCancelReplay(request, (await params).id);
}
