import { asc } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

import { createUser } from "@/lib/auth/users";
import type { Database } from "@/lib/db";
import { auditLog } from "@/lib/db/schema";
import { apiTokens } from "@/lib/db/tokens-schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { handleListEvents } from "@/lib/webhooks/api";

import { runCommandCapturing, runCommandProcess } from "./cli-testing";
import { tokensCli } from "./tokens";

let db: Database;
let tearDown: () => Promise<void>;
beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

const tokens = (...args: string[]) => runCommandCapturing(tokensCli, args);
// Started with the file, in a process of its own as npm runs it: it runs beside the tests before its own, since
// a usage error is refused before the database is opened.
const usageError = runCommandProcess("tokens", ["create", "--name", "x", "--role", "owner"]);
const status = async (secret: string) =>
  (
    await handleListEvents(
      new Request("http://console.test/api/webhook-events", { headers: { authorization: `Bearer ${secret}` } }),
    )
  ).status;

it("create prints the secret once, list shows the tokens without it, revoke stops it; each change audited", async () => {
  await createUser({ email: "sam@example.com", name: "Sam", role: "support", password: "long-enough-password" });
  const made = await tokens(
    "create",
    "--name",
    "nightly export",
    "--role",
    "support",
    "--user",
    "SAM@example.com",
    "--expires-in-days",
    "30",
  );
  expect(made).toMatchObject({ code: 0, stderr: "" });
  const [heading, secret] = made.stdout.trimEnd().split("\n");
  expect(heading).toBe("Created the support token nightly export. Its secret, shown this once:");
  expect(secret).toMatch(/^tcapi_[A-Za-z0-9_-]{43}$/);
  expect(await status(secret!)).toBe(200);

  const operator = await tokens("create", "--name", "prometheus", "--role", "admin", "--scope", "metrics,api");
  expect(operator.code).toBe(0);
  expect(await tokens("create", "--name", "too high", "--role", "admin", "--user", "sam@example.com")).toMatchObject({
    code: 1,
    stderr: "Error: A token's role can be no higher than its user's (support).\n",
  });
  expect(await tokens("create", "--name", "NIGHTLY EXPORT", "--role", "support")).toMatchObject({
    code: 1,
    stderr: "Error: A token named NIGHTLY EXPORT already exists.\n",
  });
  expect(await tokens("create", "--name", "x", "--role", "support", "--scope", "everything")).toMatchObject({
    code: 1,
  });
  expect(await tokens("create", "--name", "x", "--role", "support", "--user", "nobody@example.com")).toMatchObject({
    code: 1,
    stderr: "Error: No user with the email nobody@example.com.\n",
  });

  const listed = await tokens("list");
  expect(listed.code).toBe(0);
  const lines = listed.stdout.trimEnd().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines.find((l) => l.startsWith("nightly export"))).toMatch(
    /^nightly export\tsupport\tapi\tactive\tby sam@example.com\tcreated \S+\texpires 20\S+\tlast used \S+$/,
  );
  expect(lines.find((l) => l.startsWith("prometheus"))).toMatch(
    /^prometheus\tadmin\tmetrics,api\tactive\tby cli\tcreated \S+\texpires never\tnever used$/,
  );
  expect(listed.stdout).not.toContain("tcapi_");

  expect(await tokens("revoke", "--name", "Nightly Export")).toMatchObject({
    code: 0,
    stdout: "Revoked nightly export: it stops working at its next request.\n",
  });
  expect(await status(secret!)).toBe(401);
  expect(await tokens("revoke", "--name", "nightly export")).toMatchObject({
    code: 1,
    stderr: "Error: The token nightly export was already revoked.\n",
  });
  expect((await tokens("list")).stdout).toMatch(/nightly export\tsupport\tapi\trevoked/);

  const rows = await db.select().from(apiTokens);
  expect(JSON.stringify(rows)).not.toContain(secret!);
  const audit = await db.select().from(auditLog).orderBy(asc(auditLog.id));
  expect(audit.map((a) => [a.action, a.actorEmail, a.target])).toEqual([
    ["api_token.created", "cli", "nightly export"],
    ["api_token.used_from_new_address", "sam@example.com", "nightly export"],
    ["api_token.created", "cli", "prometheus"],
    ["api_token.revoked", "cli", "nightly export"],
  ]);
});

it("runs as npm run tokens does, refusing a usage error before opening the database", async () => {
  const outcome = await usageError;
  expect(outcome).toMatchObject({ code: 1, stdout: "" });
  expect(outcome.stderr).toMatch(/^--role must be admin or support\.\n\nUsage: npm run tokens -- <command>\n/);
});
