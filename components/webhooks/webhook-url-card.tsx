import "server-only";

import { Alert, Card } from "@/components/ui/card";
import { requireRole } from "@/lib/auth/guards";
import { webhookReceiverInfo } from "@/lib/webhooks/url";

import { WebhookUrlField } from "./webhook-url-field";

/**
 * The connection's webhook URL, to paste into the tenant's settings, and its regeneration. The URL is a
 * credential (whoever has it can post events), so only admins see it, checked here next to the data.
 */
export async function WebhookUrlCard({ connectionId }: { connectionId: string }) {
  await requireRole("admin");
  const info = await webhookReceiverInfo(connectionId);
  if (!info) return null;
  return (
    <Card>
      <h2 className="text-base font-semibold">Webhook URL</h2>
      <p className="mt-1 mb-4 text-sm text-slate-600 dark:text-slate-300">
        Paste this URL into the tenant&apos;s settings as the endpoint for authenticator events. Events then appear in
        the{" "}
        <a className="text-indigo-700 dark:text-indigo-300 underline" href={`/webhooks?connectionId=${connectionId}`}>
          webhook log
        </a>
        .
      </p>
      {info.url === null ? (
        // Reported, never shown; the field below stays so the URL can be regenerated from here.
        <div className="mb-4">
          <Alert tone="danger" title="The webhook URL cannot be shown">
            {info.unreadable}
          </Alert>
        </div>
      ) : null}
      <WebhookUrlField connectionId={connectionId} connectionName={info.connectionName} initialUrl={info.url} />
      {info.signed ? null : (
        <div className="mt-4">
          <Alert tone="warning" title="Webhooks from this tenant are not verified">
            No server API secret key is stored for this connection, so the console cannot check the signature of
            incoming events: anyone who knows the URL could post events. They are accepted and marked “unsigned” in the
            log. Add the server key to verify them.
          </Alert>
        </div>
      )}
    </Card>
  );
}
