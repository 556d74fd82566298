import { handleListEvents } from "@/lib/webhooks/api";

export const GET = (request: Request) => handleListEvents(request);
