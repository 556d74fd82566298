import "server-only";

import { cache } from "react";

import { listOpenAlerts } from "@/lib/alerts/alerts";
import type { AlertSummary } from "@/lib/alerts/types";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";

/**
 * The open, unmuted alerts, read once per request: the layout's banner and navigation badge and the
 * overview's cards share the one query. Null when they could not be read: the banner then says nothing
 * rather than break the page around it (the failure is logged).
 */
export const readOpenAlerts = cache(async (): Promise<AlertSummary[] | null> => {
  try {
    return await listOpenAlerts();
  } catch (error) {
    logger.warn("open alerts could not be read", { error: errorMessage(error) });
    return null;
  }
});
