import { handleRemoveDestination, handleUpdateDestination } from "@/lib/destinations/api-destinations";

type Context = { params: Promise<{ id: string }> };

export async function PATCH(request: Request, { params }: Context) {
  return handleUpdateDestination(request, (await params).id);
}

export async function DELETE(request: Request, { params }: Context) {
  return handleRemoveDestination(request, (await params).id);
}
