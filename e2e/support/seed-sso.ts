import { createUser } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";

import { e2eEnv } from "./env";
import { e2eLinkerLocalAccount, e2eOidcUsers } from "./oidc";

/**
 * The single sign-on side of the seed (./seed.ts): the console user of someone who signed in through
 * single sign-on before and whom an admin then disabled, and the password account that
 * e2eOidcUsers.linker links single sign-on to.
 */
export async function seedSsoAccounts() {
  const { leaver } = e2eOidcUsers;
  const db = await getDb();
  await db.insert(consoleUsers).values({
    email: leaver.email,
    name: leaver.name,
    role: "support",
    disabled: true,
    oidcIssuer: e2eEnv.oidcUrl,
    oidcSubject: leaver.login,
    lastSignInAt: new Date(Date.now() - 86_400_000),
  });
  await createUser({ email: e2eOidcUsers.linker.email, ...e2eLinkerLocalAccount });
}
