import { env } from "@/lib/env";
import { purgeWebhookData } from "@/lib/webhooks/retention";
import { runCli } from "./cli";

runCli("Usage: npm run purge", async () => {
  const days = env().CONSOLE_WEBHOOK_RETENTION_DAYS;
  const result = await purgeWebhookData();
  if (!result.ran) {
    console.log("Another instance is purging right now; nothing done.");
    return;
  }
  console.log(
    `Purged ${result.events} webhook events and ${result.rejections} rejections older than ${days} days, and ${result.loginAttempts} login attempts older than a day.`,
  );
});
