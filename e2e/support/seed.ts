import { setUserDisabled, createUser } from "@/lib/auth/users";
import { closeDb } from "@/lib/db";
import { e2eUsers } from "./env";

/** Seeds the e2e database before the console starts (PGlite is single-process). */
async function main() {
  for (const user of Object.values(e2eUsers)) {
    await createUser({ email: user.email, name: user.name, role: user.role, password: user.password });
    if ("disabled" in user && user.disabled) await setUserDisabled(user.email, true);
  }
  await closeDb();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
