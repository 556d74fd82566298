/**
 * Points each emulated tenant's webhook at the console's receiver URL for its connection
 * (`PUT /_emulator/tenants/{tenantId}/webhook`). Used by `npm run demo` and the e2e seed.
 */
export async function pointEmulatorAtConsole(
  emulatorUrl: string,
  consoleUrl: string,
  seeded: ReadonlyArray<{ tenantId: string; webhookToken: string }>,
): Promise<void> {
  for (const { tenantId, webhookToken } of seeded) {
    const url = `${consoleUrl.replace(/\/$/, "")}/api/webhooks/${webhookToken}`;
    const response = await fetch(`${emulatorUrl}/_emulator/tenants/${encodeURIComponent(tenantId)}/webhook`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ url }),
    });
    if (!response.ok) {
      throw new Error(
        `The emulator refused the webhook URL of tenant ${tenantId}: ${response.status} ${await response.text()}`,
      );
    }
  }
}
