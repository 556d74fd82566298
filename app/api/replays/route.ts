import { handleStartReplay } from "@/lib/destinations/api-replays";

export const POST = (request: Request) => handleStartReplay(request);
