import { recordAudit } from "@/lib/audit/audit";
import type { AuditAction } from "@/lib/audit/schemas";
import { unlockSignIn } from "@/lib/auth/lockouts";
import { roles, type Role } from "@/lib/auth/roles";
import { createUser, listUsers, revokeSessions, setUserDisabled, setUserPassword, setUserRole } from "@/lib/auth/users";
import { getDb, type Transaction } from "@/lib/db";

import { cliActor, defineCli, parseCommand, UsageError, type CliIo } from "./cli";

const usage = `Usage: npm run users -- <command>
  add --email E --role admin|support [--name N] [--password P]   (password from stdin if not given)
  list
  disable --email E
  enable --email E
  set-password --email E [--password P]                        (password from stdin if not given)
  set-role --email E --role admin|support
  revoke-sessions --email E                                    (signs the user out everywhere)
  unlock --email E                                             (clears failed sign-ins, so every address may try again)

disable, set-password, set-role and revoke-sessions end the user's sessions at their next request;
disable and revoke-sessions revoke the user's API tokens too, and set-role those above the new role.`;

async function password(given: string | undefined, io: CliIo): Promise<string> {
  const value = given ?? (await io.readStdin());
  if (!value) throw new UsageError("No password: pass --password or pipe it on standard input.");
  return value;
}

function requireEmail(email: string | undefined): string {
  if (!email) throw new UsageError("--email is required.");
  return email;
}

/** Changes an existing user and records it in one transaction, so the change never lands without its audit record. */
async function changeUser(
  email: string,
  action: AuditAction,
  change: (tx: Transaction) => Promise<boolean>,
  details?: Record<string, unknown>,
): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    if (!(await change(tx))) throw new Error(`No user with the email ${email}.`);
    await recordAudit({ actor: cliActor, action, outcome: "success", target: email, details }, tx);
  });
}

function requireRole(role: string | undefined): Role {
  if (!roles.includes(role as Role)) throw new UsageError("--role must be admin or support.");
  return role as Role;
}

export const usersCli = defineCli(import.meta.url, usage, async (argv, io) => {
  const { command, values } = parseCommand(argv, {
    email: { type: "string" },
    role: { type: "string" },
    name: { type: "string" },
    password: { type: "string" },
  });
  switch (command) {
    case "add": {
      const email = requireEmail(values.email);
      const role = requireRole(values.role);
      // Read before the transaction opens: it must not stay open while waiting on standard input.
      const input = {
        email,
        role,
        name: values.name ?? email.split("@")[0]!,
        password: await password(values.password, io),
      };
      const db = await getDb();
      const user = await db.transaction(async (tx) => {
        const created = await createUser(input, tx);
        await recordAudit(
          {
            actor: cliActor,
            action: "user.created",
            outcome: "success",
            target: created.email,
            details: { role: created.role },
          },
          tx,
        );
        return created;
      });
      io.print(`Added ${user.role} ${user.email}.`);
      return;
    }
    case "list": {
      const users = await listUsers();
      if (users.length === 0)
        io.print("No console users yet. Add one with: npm run users -- add --email E --role admin");
      for (const u of users) io.print(`${u.email}\t${u.role}\t${u.disabled ? "disabled" : "active"}\t${u.name}`);
      return;
    }
    case "disable":
    case "enable": {
      const email = requireEmail(values.email);
      await changeUser(email, command === "disable" ? "user.disabled" : "user.enabled", (tx) =>
        setUserDisabled(email, command === "disable", tx, cliActor),
      );
      io.print(`${command === "disable" ? "Disabled" : "Enabled"} ${email}.`);
      return;
    }
    case "set-password": {
      const email = requireEmail(values.email);
      const newPassword = await password(values.password, io);
      await changeUser(email, "user.password_set", (tx) => setUserPassword(email, newPassword, tx));
      io.print(`Set a new password for ${email}.`);
      return;
    }
    case "set-role": {
      const email = requireEmail(values.email);
      const role = requireRole(values.role);
      await changeUser(email, "user.role_changed", (tx) => setUserRole(email, role, tx, cliActor), { role });
      io.print(`${email} is now ${role}; their sessions have ended.`);
      return;
    }
    case "revoke-sessions": {
      const email = requireEmail(values.email);
      await changeUser(email, "user.sessions_revoked", (tx) => revokeSessions(email, tx, cliActor));
      io.print(`Ended every session of ${email}.`);
      return;
    }
    case "unlock": {
      // Break-glass: clears the failures recorded for that email whether or not an account has it.
      const email = requireEmail(values.email);
      const db = await getDb();
      const cleared = await db.transaction(async (tx) => {
        const count = await unlockSignIn(email, tx);
        await recordAudit(
          { actor: cliActor, action: "user.unlocked", outcome: "success", target: email, details: { cleared: count } },
          tx,
        );
        return count;
      });
      io.print(
        `Cleared ${cleared} failed sign-in attempt${cleared === 1 ? "" : "s"} for ${email}; it may sign in again from every address.`,
      );
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : "No command given.");
  }
});
