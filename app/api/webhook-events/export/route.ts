import { handleExportEvents } from "@/lib/webhooks/api";

export const GET = (request: Request) => handleExportEvents(request);
