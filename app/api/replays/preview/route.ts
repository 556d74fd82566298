import { handlePreviewReplay } from "@/lib/destinations/api-replays";

export const POST = (request: Request) => handlePreviewReplay(request);
