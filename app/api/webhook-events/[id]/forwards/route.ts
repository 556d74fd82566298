import { handleGetEventForwards, handleResendEvent } from "@/lib/destinations/api";

type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Context) {
  return handleGetEventForwards(request, (await params).id);
}

export async function POST(request: Request, { params }: Context) {
  return handleResendEvent(request, (await params).id);
}
