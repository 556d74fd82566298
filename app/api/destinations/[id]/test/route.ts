import { handleTestDestination } from "@/lib/destinations/api-destinations";

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleTestDestination(request, (await params).id);
}
