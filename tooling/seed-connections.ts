import { loadSeedFile } from "@/emulator/server";
import { createConnection } from "@/lib/connections/connections";
import { findConnectionIdByName } from "@/lib/connections/repository";
import { readWebhookToken } from "@/lib/webhooks/url";

const seedActor = { id: null, email: "seed" } as const;

/**
 * One connection per tenant of the emulator's demo seed (name = tenant name), with its management
 * key and server keys. Verified if the emulator answers, saved unverified if not. Idempotent: a
 * connection that already exists by name is left as it is.
 */
export async function seedDemoConnections(
  seedFile = "emulator/seeds/demo.json",
): Promise<Array<{ id: string; name: string; tenantId: string; webhookToken: string }>> {
  const seed = loadSeedFile(seedFile);
  const seeded: Array<{ id: string; name: string; tenantId: string; webhookToken: string }> = [];
  for (const tenant of seed.tenants) {
    let id = await findConnectionIdByName(tenant.name);
    if (!id) {
      const result = await createConnection(seedActor, {
        name: tenant.name,
        region: tenant.region,
        managementKey: tenant.managementKey,
        serverKey: tenant.serverSecretKeys[0] ?? "",
        serverSecondaryKey: tenant.serverSecretKeys[1] ?? "",
        saveUnverified: true,
      });
      if (!result.ok) throw new Error(`Could not seed the connection ${tenant.name}: ${result.error}`);
      id = result.id;
    }
    const webhookToken = await readWebhookToken(id);
    if (!webhookToken) throw new Error(`The connection ${tenant.name} has no webhook token.`);
    seeded.push({ id, name: tenant.name, tenantId: tenant.id, webhookToken });
  }
  return seeded;
}
