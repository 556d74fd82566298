import { loadSeedFile } from "@/emulator/server";
import { createDestination } from "@/lib/destinations/destinations";

import type { TenantAppHandler } from "./tenant-app";

const seedActor = { id: null, email: "seed" } as const;

/** A tenant's handler path in the tenant app: its name in lower case, words joined by "-". */
const handlerPath = (tenantName: string) => `/tenants/${tenantName.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

/** The tenant app's handlers for the seed's tenants, each verifying with its tenant's server keys. */
export function demoTenantAppHandlers(seedFile: string): TenantAppHandler[] {
  return loadSeedFile(seedFile).tenants.map((tenant) => ({
    path: handlerPath(tenant.name),
    name: tenant.name,
    serverKeys: tenant.serverSecretKeys,
  }));
}

/** One destination per demo connection, "Tenant app", signed as the service, to its handler in the tenant app. */
export async function seedDemoDestinations(
  connections: ReadonlyArray<{ id: string; name: string }>,
  tenantAppUrl: string,
): Promise<void> {
  for (const connection of connections) {
    const result = await createDestination(
      seedActor,
      {
        connectionId: connection.id,
        name: "Tenant app",
        url: `${tenantAppUrl}${handlerPath(connection.name)}`,
        signing: "service",
        eventTypes: [],
        verificationMethods: [],
      },
      { allowedHosts: ["127.0.0.1"] },
    );
    if (!result.ok) throw new Error(`Could not add the demo destination of ${connection.name}: ${result.error}`);
  }
}
