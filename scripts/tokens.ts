import { findUserByEmail } from "@/lib/auth/users";
import { API_TOKEN_PREFIX } from "@/lib/tokens/constants";
import { createApiToken, listApiTokens, revokeApiTokenByName, type TokenCreator } from "@/lib/tokens/tokens";
import type { ApiTokenView } from "@/lib/tokens/types";

import { cliActor, defineCli, parseCommand, requireOption, UsageError } from "./cli";

const usage = `Usage: npm run tokens -- <command>
  create --name N --role support|admin [--user EMAIL] [--expires-in-days D] [--scope api,metrics]
      Makes an API token and prints its secret (${API_TOKEN_PREFIX}…) this once; only its hash is kept.
      --user: the token acts for that console user and works only while the user is enabled and holds
      the role (which may be no higher than theirs). Without it, it is an operator's token.
      --scope: api (the /api data routes, the default), metrics (GET /api/metrics), or both.
      --expires-in-days: it stops working after D days (default: never).
  list     name, role, scopes, status, created by, created, expires, last used (time and address); never a secret
  revoke --name N   the token stops working at its next request`;

function parseDays(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new UsageError("--expires-in-days must be a whole number of days.");
  return Number(value);
}

async function creatorFor(email: string | undefined): Promise<TokenCreator> {
  if (email === undefined) return { actor: cliActor, user: null };
  const user = await findUserByEmail(email);
  if (!user) throw new Error(`No user with the email ${email}.`);
  if (user.disabled) throw new Error(`${user.email} is disabled: a token for them would not work.`);
  return { actor: cliActor, user: { id: user.id, role: user.role } };
}

function tokenLine(t: ApiTokenView): string {
  const from = t.lastUsedAddress ? ` from ${t.lastUsedAddress}` : "";
  const lastUse = t.lastUsedAt ? `last used ${t.lastUsedAt}${from}` : "never used";
  return [
    t.name,
    t.role,
    t.scopes.join(","),
    t.status,
    `by ${t.createdBy ?? "cli"}`,
    `created ${t.createdAt}`,
    `expires ${t.expiresAt ?? "never"}`,
    lastUse,
  ].join("\t");
}

export const tokensCli = defineCli(import.meta.url, usage, async (argv, io) => {
  const { command, values } = parseCommand(argv, {
    name: { type: "string" },
    role: { type: "string" },
    user: { type: "string" },
    "expires-in-days": { type: "string" },
    scope: { type: "string" },
  });
  switch (command) {
    case "create": {
      const name = requireOption("name", values.name);
      const role = requireOption("role", values.role);
      if (role !== "admin" && role !== "support") throw new UsageError("--role must be admin or support.");
      const scopes = (values.scope ?? "api")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const expiresInDays = parseDays(values["expires-in-days"]);
      const created = await createApiToken(await creatorFor(values.user), { name, role, scopes, expiresInDays });
      if (!created.ok) throw new Error(created.error);
      io.print(`Created the ${role} token ${created.name}. Its secret, shown this once:`);
      io.print(created.secret);
      return;
    }
    case "list": {
      const tokens = await listApiTokens();
      if (tokens.length === 0)
        io.print("No API tokens yet. Make one with: npm run tokens -- create --name N --role support");
      for (const t of tokens) io.print(tokenLine(t));
      return;
    }
    case "revoke": {
      const revoked = await revokeApiTokenByName(cliActor, requireOption("name", values.name));
      if (!revoked.ok) throw new Error(revoked.error);
      io.print(`Revoked ${revoked.name}: it stops working at its next request.`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : "No command given.");
  }
});
