import { handleGetReplay } from "@/lib/destinations/api";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleGetReplay((await params).id);
}
