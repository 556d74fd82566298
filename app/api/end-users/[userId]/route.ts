import { handleEraseEndUser } from "@/lib/erasure/api";

export async function DELETE(request: Request, { params }: { params: Promise<{ userId: string }> }) {
  return handleEraseEndUser(request, (await params).userId);
}
