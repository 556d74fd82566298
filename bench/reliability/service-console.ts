/**
 * The scenario checks 4 and 5 share: a console pointed at the emulator, seeded with an admin and a
 * support user, the emulator's demo tenants as connections (Acme, US, selected by default; one watched
 * data point) and a connection without server keys; both users signed in over HTTP.
 */
import { sql } from "drizzle-orm";

import { seedConnection, seedServiceConnections, seedUsers, users } from "./seed";
import { createScenario, startConsole, withDatabase, type ConsoleServer } from "./server";
import { signIn, type Session } from "./session";

export type ServiceConsole = {
  server: ConsoleServer;
  acmeId: string;
  unsigned: { id: string; token: string };
  admin: Session;
  support: Session;
};

export async function withServiceConsole<T>(work: (fixture: ServiceConsole) => Promise<T>): Promise<T> {
  const scenario = await createScenario("pages");
  let server: ConsoleServer | undefined;
  try {
    const seeded = await withDatabase(scenario, async (db) => {
      await seedUsers();
      const connections = await seedServiceConnections();
      const acme = connections.find((c) => c.name === "Acme")!;
      await db.execute(
        sql`insert into data_point_watches (connection_id, data_point_id) values (${acme.id}, 'dp_loyalty_tier')`,
      );
      return { acmeId: acme.id, unsigned: await seedConnection("Zz Unsigned") };
    });
    server = await startConsole(scenario);
    const [admin, support] = await Promise.all([signIn(server.url, users.admin), signIn(server.url, users.support)]);
    return await work({ server, ...seeded, admin, support });
  } finally {
    await server?.stop();
    await scenario.dispose();
  }
}
