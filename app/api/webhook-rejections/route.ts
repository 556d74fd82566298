import { handleListRejections } from "@/lib/webhooks/api";

/** GET: one page as JSON; with ?format=csv|ndjson: the whole filtered set, streamed. */
export const GET = (request: Request) => handleListRejections(request);
