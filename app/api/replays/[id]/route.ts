import { handleGetReplay } from "@/lib/destinations/api";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleGetReplay(request, (await params).id);
}
