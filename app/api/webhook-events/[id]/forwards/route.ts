import { handleGetEventForwards } from "@/lib/destinations/api";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleGetEventForwards(request, (await params).id);
}
