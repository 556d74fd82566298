import { listConnections } from "@/lib/connections/connections";
import { findConnectionIdByName } from "@/lib/connections/repository";
import { SIGNING_MODE_VALUES, type SigningModeName } from "@/lib/destinations/constants";
import { createDestination, listDestinationChoices, listDestinations, removeDestination } from "@/lib/destinations/destinations";
import type { DestinationSummary } from "@/lib/destinations/types";
import { cliActor, defineCli, parseCommand, requireOption, UsageError } from "./cli";

const usage = `Usage: npm run destinations -- <command>
  add --connection C --name N --url URL [--signing service|standard-webhooks] [--types a,b] [--methods x,y]
      [--include-unverified] [--max-per-second N]
      Forwards the events connection C receives to URL (https; http only for a host in
      CONSOLE_FORWARD_ALLOWED_HOSTS). Nothing is sent when it is added.
      --signing service (the default) signs them as the service does, with the connection's server key,
      and only events the console verified; standard-webhooks with a secret of the destination's own,
      printed this once. --include-unverified (standard-webhooks only) sends it the events the console
      could not verify too, marked webhook-verification: unsigned.
      --types and --methods forward only those event types and verification methods (default: all).
      --max-per-second N caps the deliveries started per second (1 to 10000; default: no cap).
  list [--connection C]   connection, name, URL, on/off/paused, signing, event types, verification methods,
                          deliveries pending; never a secret
  remove --connection C --name N   the destination, with its queued deliveries and attempts`;

/** The CLI's names of the signing modes: the lib's, with a hyphen. */
const signingFlag = (mode: SigningModeName) => mode.replace("_", "-");

function readSigning(value = "service"): SigningModeName {
  const mode = SIGNING_MODE_VALUES.find((m) => signingFlag(m) === value);
  if (!mode) throw new UsageError(`--signing must be ${SIGNING_MODE_VALUES.map(signingFlag).join(" or ")}.`);
  return mode;
}

/** A comma-separated option as a list; empty (every one) when not given. */
const readList = (value: string | undefined) => (value ?? "").split(",").map((v) => v.trim()).filter(Boolean);

const listWords = (values: readonly string[] | null) => (values?.length ? values.join(",") : "all");

async function requireConnectionId(name: string): Promise<string> {
  const id = await findConnectionIdByName(name);
  if (!id) throw new Error(`No connection named ${name}.`);
  return id;
}

function destinationLine(connection: string, d: DestinationSummary): string {
  // A failing destination is still on: list shows what an admin switched, or the 24 h rule paused.
  const state = d.health.state === "off" || d.health.state === "paused" ? d.health.state : "on";
  const types = `types: ${listWords(d.eventTypes)}`;
  const methods = `methods: ${listWords(d.verificationMethods)}`;
  return [connection, d.name, d.url, state, signingFlag(d.signing), types, methods, `${d.health.pending} pending`].join("\t");
}

export const destinationsCli = defineCli(import.meta.url, usage, async (argv, io) => {
  const { command, values } = parseCommand(argv, {
    connection: { type: "string" },
    name: { type: "string" },
    url: { type: "string" },
    signing: { type: "string" },
    types: { type: "string" },
    methods: { type: "string" },
    "include-unverified": { type: "boolean" },
    "max-per-second": { type: "string" },
  });
  switch (command) {
    case "add": {
      const connection = requireOption("connection", values.connection);
      const name = requireOption("name", values.name);
      const url = requireOption("url", values.url);
      const signing = readSigning(values.signing);
      const eventTypes = readList(values.types);
      const verificationMethods = readList(values.methods);
      const connectionId = await requireConnectionId(connection);
      const extra = { includeUnverified: values["include-unverified"] === true, maxPerSecond: values["max-per-second"] };
      const result = await createDestination(cliActor, { connectionId, name, url, signing, eventTypes, verificationMethods, ...extra });
      if (!result.ok) throw new Error(result.error);
      const options = [extra.maxPerSecond ? `, at most ${extra.maxPerSecond.trim()} per second` : "", extra.includeUnverified ? ", unverified events included" : ""].join("");
      io.print(
        `Added ${result.name} to ${connection}: ${url}, signing ${signingFlag(signing)}, event types ${listWords(eventTypes)}, verification methods ${listWords(verificationMethods)}${options}.`,
      );
      if (result.secret) {
        io.print(`Signing secret: ${result.secret}`);
        io.print("This secret will not be shown again: give it to the receiver now.");
      }
      return;
    }
    case "list": {
      const only = values.connection === undefined ? undefined : await requireConnectionId(requireOption("connection", values.connection));
      const lines: string[] = [];
      for (const c of await listConnections()) {
        if (only && c.id !== only) continue;
        // The operator at the console's own shell sees what an admin sees.
        for (const d of await listDestinations(c.id, "admin")) lines.push(destinationLine(c.name, d));
      }
      if (lines.length === 0) io.print("No destinations yet. Add one with: npm run destinations -- add --connection C --name N --url URL");
      for (const line of lines) io.print(line);
      return;
    }
    case "remove": {
      const connection = requireOption("connection", values.connection);
      const name = requireOption("name", values.name);
      const connectionId = await requireConnectionId(connection);
      const destination = (await listDestinationChoices(connectionId)).find((d) => d.name.toLowerCase() === name.toLowerCase());
      if (!destination) throw new Error(`${connection} has no destination named ${name}.`);
      const result = await removeDestination(cliActor, { connectionId, destinationId: destination.id });
      if (!result.ok) throw new Error(result.error);
      io.print(`Removed ${destination.name} from ${connection}, with its queued deliveries and attempts.`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : "No command given.");
  }
});
