import { handleGetEventForwards } from "@/lib/destinations/api";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleGetEventForwards((await params).id);
}
