import { handleListAlerts } from "@/lib/alerts/api";

export const GET = (request: Request) => handleListAlerts(request);
