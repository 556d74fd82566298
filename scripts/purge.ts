import { env } from "@/lib/env";
import { purgeWebhookData } from "@/lib/webhooks/retention";

import { defineCli } from "./cli";

defineCli(import.meta.url, "Usage: npm run purge", async (_argv, io) => {
  const days = env().CONSOLE_WEBHOOK_RETENTION_DAYS;
  const result = await purgeWebhookData();
  if (!result.ran) {
    io.print("Another instance is purging right now; nothing done.");
    return;
  }
  io.print(
    `Purged ${result.events} webhook events and ${result.rejections} rejections older than ${days} days, and ${result.loginAttempts} login attempts older than a day.`,
  );
});
