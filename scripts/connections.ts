import { createConnection, deleteConnection, getConnection, updateConnection } from "@/lib/connections/connections";
import { findConnectionIdByName, listConnections } from "@/lib/connections/repository";
import type { ConnectionMutationResult } from "@/lib/connections/types";
import { env } from "@/lib/env";
import { isRegion, regions, regionShortNames } from "@/lib/service/regions";
import { webhookReceiverInfo, webhookUrlFor } from "@/lib/webhooks/url";

import { cliActor, defineCli, parseCommand, requireOption, UsageError, type CliIo } from "./cli";

const usage = `Usage: npm run connections -- <command>
  add --name N --region us|eu|au|ca [--unverified] [--allow-same-tenant]
      Keys are never taken from arguments (other users of the machine can see those). Give them as
      CONSOLE_MANAGEMENT_KEY and, optionally, CONSOLE_SERVER_SECRET_KEY, or pipe them on standard
      input: the management key on the first line, the server API secret key on the second.
      --unverified saves even when the region cannot be reached to check the key.
      --allow-same-tenant adds it even when another connection already holds this management key in
      this region (a second connection to the same tenant, as the web form's "Add a second connection anyway").
  set-keys --name N [--unverified] [--allow-same-tenant]
      Replaces connection N's management key, its server API secret key, or both (after a rotation at
      the service), taken as add takes them: CONSOLE_MANAGEMENT_KEY and/or CONSOLE_SERVER_SECRET_KEY,
      or piped on standard input (the management key on the first line, left empty to keep it; the
      server API secret key on the second). A new management key is checked against the connection's
      region, as the connection's page does; each replaced key is audited.
  list      names, regions, key fingerprints (last four characters) and webhook URLs
  remove --name N`;

type Keys = { managementKey: string; serverKey: string };
type KeyFlags = { unverified?: boolean; "allow-same-tenant"?: boolean };

/** The keys piped on standard input: the management key on the first line, the server API secret key on the second. */
async function pipedKeys(io: CliIo): Promise<Keys> {
  const [managementKey = "", serverKey = ""] = ((await io.readStdin()) ?? "").split(/\r?\n/).map((l) => l.trim());
  return { managementKey, serverKey };
}

async function readKeys(io: CliIo): Promise<Keys> {
  const e = env();
  if (e.CONSOLE_MANAGEMENT_KEY)
    return { managementKey: e.CONSOLE_MANAGEMENT_KEY, serverKey: e.CONSOLE_SERVER_SECRET_KEY ?? "" };
  const { managementKey, serverKey } = await pipedKeys(io);
  if (!managementKey)
    throw new UsageError("No management key: set CONSOLE_MANAGEMENT_KEY or pipe it on standard input.");
  return { managementKey, serverKey: serverKey || e.CONSOLE_SERVER_SECRET_KEY || "" };
}

/** The keys set-keys replaces: either may be empty (kept), not both. */
async function readReplacementKeys(io: CliIo): Promise<Keys> {
  const e = env();
  if (e.CONSOLE_MANAGEMENT_KEY || e.CONSOLE_SERVER_SECRET_KEY)
    return { managementKey: e.CONSOLE_MANAGEMENT_KEY ?? "", serverKey: e.CONSOLE_SERVER_SECRET_KEY ?? "" };
  const { managementKey, serverKey } = await pipedKeys(io);
  if (!managementKey && !serverKey) {
    throw new UsageError(
      "No key given: set CONSOLE_MANAGEMENT_KEY and/or CONSOLE_SERVER_SECRET_KEY, or pipe them on standard input (the management key on the first line, empty to keep it; the server key on the second).",
    );
  }
  return { managementKey, serverKey };
}

/**
 * What add and set-keys give the connection's lib function beside its name and region: the keys, and the flags as the
 * web form's buttons.
 */
function keyInput(keys: Keys, flags: KeyFlags) {
  return {
    ...keys,
    serverSecondaryKey: "",
    saveUnverified: flags.unverified ?? false,
    allowSameKey: flags["allow-same-tenant"] ?? false,
  };
}

/** The flag or option that answers a refused add, as the web form's buttons do. */
function addFailureHint(failure: Extract<ConnectionMutationResult, { ok: false }>): string {
  if (failure.sameKeyAs) return " Add --allow-same-tenant to add a second connection to it anyway.";
  if (failure.canSaveUnverified) return " Add --unverified to save it anyway.";
  return failure.suggestedRegion ? ` Use --region ${failure.suggestedRegion}.` : "";
}

export const connectionsCli = defineCli(import.meta.url, usage, async (argv, io) => {
  const { command, values } = parseCommand(argv, {
    name: { type: "string" },
    region: { type: "string" },
    unverified: { type: "boolean" },
    "allow-same-tenant": { type: "boolean" },
  });
  switch (command) {
    case "add": {
      const name = requireOption("name", values.name);
      if (!isRegion(values.region)) throw new UsageError(`--region must be one of ${regions.join(", ")}.`);
      const result = await createConnection(cliActor, {
        name,
        region: values.region,
        ...keyInput(await readKeys(io), values),
      });
      if (!result.ok) throw new Error(`${result.error}${addFailureHint(result)}`);
      io.print(
        `Added ${name} (${regionShortNames[values.region]}, ${result.verified ? "key verified" : "unverified"}).`,
      );
      io.print(`Webhook URL: ${await webhookUrlFor(result.id)}`);
      return;
    }
    case "set-keys":
      return setKeys(requireOption("name", values.name), values, io);
    case "list": {
      const all = await listConnections();
      if (all.length === 0)
        io.print("No connections yet. Add one with: npm run connections -- add --name N --region us");
      for (const c of all) {
        const keys = (["management", "server", "server_secondary"] as const)
          .map((kind) => (c.keys[kind] ? `${kind} …${c.keys[kind].last4}` : null))
          .filter(Boolean)
          .join(", ");
        // One unreadable URL (see "Bound to its row" in the README) is named in its row, not the end of the list.
        const receiver = await webhookReceiverInfo(c.id);
        const url = receiver?.url ?? receiver?.unreadable;
        io.print(
          `${c.name}\t${regionShortNames[c.region]}\t${c.verifiedAt ? "verified" : "unverified"}\t${keys}\t${url}`,
        );
      }
      return;
    }
    case "remove": {
      const name = requireOption("name", values.name);
      const id = await findConnectionIdByName(name);
      if (!id) throw new Error(`No connection named ${name}.`);
      const result = await deleteConnection(cliActor, { id, confirmName: name });
      if (!result.ok) throw new Error(result.error);
      io.print(`Removed ${name}, its keys, watch list and webhook history.`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : "No command given.");
  }
});

/** set-keys: through the same lib function as the connection page's form, so a key is checked and audited alike. */
async function setKeys(name: string, flags: KeyFlags, io: CliIo): Promise<void> {
  const id = await findConnectionIdByName(name);
  const current = id ? await getConnection(id) : undefined;
  if (!id || !current) throw new Error(`No connection named ${name}.`);
  const keys = await readReplacementKeys(io);
  const result = await updateConnection(cliActor, {
    id,
    name: current.name,
    region: current.region,
    ...keyInput(keys, flags),
    removeServerSecondaryKey: false,
  });
  // The region is the connection's: a key of another region is said by the lib, and changed on its page.
  if (!result.ok) throw new Error(`${result.error}${result.suggestedRegion ? "" : addFailureHint(result)}`);
  const replaced = [
    keys.managementKey ? `management key (${result.verified ? "verified" : "unverified"})` : null,
    keys.serverKey ? "server API secret key" : null,
  ].filter(Boolean);
  io.print(`Replaced ${current.name}'s ${replaced.join(" and ")}.`);
}
