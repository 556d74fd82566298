import { recordAudit } from "@/lib/audit/audit";
import { roles, type Role } from "@/lib/auth/roles";
import { createUser, listUsers, setUserDisabled, setUserPassword } from "@/lib/auth/users";
import { getDb, type Transaction } from "@/lib/db";
import { parseCommand, readStdin, runCli, UsageError } from "./cli";

const usage = `Usage: npm run users -- <command>
  add --email E --role admin|support [--name N] [--password P]   (password from stdin if not given)
  list
  disable --email E
  enable --email E
  set-password --email E [--password P]                        (password from stdin if not given)`;

const cliActor = { id: null, email: "cli" } as const;

async function password(given: string | undefined): Promise<string> {
  const value = given ?? (await readStdin());
  if (!value) throw new UsageError("No password: pass --password or pipe it on standard input.");
  return value;
}

function requireEmail(email: string | undefined): string {
  if (!email) throw new UsageError("--email is required.");
  return email;
}

/** Changes an existing user and records it in one transaction, so the change never lands without its audit record. */
async function changeUser(email: string, action: string, change: (tx: Transaction) => Promise<boolean>): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    if (!(await change(tx))) throw new Error(`No user with the email ${email}.`);
    await recordAudit({ actor: cliActor, action, outcome: "success", target: email }, tx);
  });
}

runCli(usage, async () => {
  const { command, values } = parseCommand(process.argv.slice(2), {
    email: { type: "string" },
    role: { type: "string" },
    name: { type: "string" },
    password: { type: "string" },
  });
  switch (command) {
    case "add": {
      const email = requireEmail(values.email);
      if (!roles.includes(values.role as Role)) throw new UsageError("--role must be admin or support.");
      // Read before the transaction opens: it must not stay open while waiting on standard input.
      const input = { email, role: values.role as Role, name: values.name ?? email.split("@")[0]!, password: await password(values.password) };
      const db = await getDb();
      const user = await db.transaction(async (tx) => {
        const created = await createUser(input, tx);
        await recordAudit({ actor: cliActor, action: "user.created", outcome: "success", target: created.email, details: { role: created.role } }, tx);
        return created;
      });
      console.log(`Added ${user.role} ${user.email}.`);
      return;
    }
    case "list": {
      const users = await listUsers();
      if (users.length === 0) console.log("No console users yet. Add one with: npm run users -- add --email E --role admin");
      for (const u of users) console.log(`${u.email}\t${u.role}\t${u.disabled ? "disabled" : "active"}\t${u.name}`);
      return;
    }
    case "disable":
    case "enable": {
      const email = requireEmail(values.email);
      await changeUser(email, `user.${command}d`, (tx) => setUserDisabled(email, command === "disable", tx));
      console.log(`${command === "disable" ? "Disabled" : "Enabled"} ${email}.`);
      return;
    }
    case "set-password": {
      const email = requireEmail(values.email);
      const newPassword = await password(values.password);
      await changeUser(email, "user.password_set", (tx) => setUserPassword(email, newPassword, tx));
      console.log(`Set a new password for ${email}.`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : "No command given.");
  }
});
