import { PageHeader } from "@/components/ui/card";

/** The page's heading and what the log holds; loading.tsx paints the same, so nothing moves when the page arrives. */
export function WebhooksPageHeader({ retentionDays }: { retentionDays: number }) {
  return (
    <PageHeader
      title="Webhooks"
      description={
        <>
          Events the service sent to this console&apos;s webhook URLs, newest first. An{" "}
          <code>authenticator.expired</code> event may arrive up to 24 hours after the expiry itself (the service sends
          it asynchronously), so a delay of minutes or hours is normal. Events and rejections are kept for{" "}
          <strong>{retentionDays} days</strong>.
        </>
      }
    />
  );
}
