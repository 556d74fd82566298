import { listConnections } from "@/lib/connections/connections";
import { findConnectionIdByName } from "@/lib/connections/repository";
import { SIGNING_MODE_VALUES, type SigningModeName } from "@/lib/destinations/constants";
import {
  createDestination,
  listDestinationChoices,
  listDestinations,
  removeDestination,
} from "@/lib/destinations/destinations";
import { cancelReplay, continueReplays, getReplayProgress, startReplay } from "@/lib/destinations/replay";
import type { DestinationSummary } from "@/lib/destinations/types";
import { ALL_TYPES } from "@/lib/webhooks/constants";
import { eventFiltersSchema } from "@/lib/webhooks/schemas";

import { cliActor, defineCli, parseCommand, requireOption, UsageError, type CliIo } from "./cli";

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
  remove --connection C --name N   the destination, with its queued deliveries and attempts
  replay --connection C --name N --since ISO [--until ISO]
      Sends destination N again the events connection C received from --since (to --until, or now),
      as the log's Replay… does: its own event types and methods, never an event the console could not
      verify to one signing as the service. Prints how many it queued, waits until they are all queued,
      then exits; the console's forwarding workers send them (at the destination's rate cap).
      One replay runs at a time per destination, of at most 1,000,000 events.
  cancel-replay --replay ID   stops a replay: what still waits is not sent`;

/** The CLI's names of the signing modes: the lib's, with a hyphen. */
const signingFlag = (mode: SigningModeName) => mode.replace("_", "-");

function readSigning(value = "service"): SigningModeName {
  const mode = SIGNING_MODE_VALUES.find((m) => signingFlag(m) === value);
  if (!mode) throw new UsageError(`--signing must be ${SIGNING_MODE_VALUES.map(signingFlag).join(" or ")}.`);
  return mode;
}

/** A comma-separated option as a list; empty (every one) when not given. */
const readList = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

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
  return [connection, d.name, d.url, state, signingFlag(d.signing), types, methods, `${d.health.pending} pending`].join(
    "\t",
  );
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
    since: { type: "string" },
    until: { type: "string" },
    replay: { type: "string" },
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
      const extra = {
        includeUnverified: values["include-unverified"] === true,
        maxPerSecond: values["max-per-second"],
      };
      const result = await createDestination(cliActor, {
        connectionId,
        name,
        url,
        signing,
        eventTypes,
        verificationMethods,
        ...extra,
      });
      if (!result.ok) throw new Error(result.error);
      const options = [
        extra.maxPerSecond ? `, at most ${extra.maxPerSecond.trim()} per second` : "",
        extra.includeUnverified ? ", unverified events included" : "",
      ].join("");
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
      const only =
        values.connection === undefined
          ? undefined
          : await requireConnectionId(requireOption("connection", values.connection));
      const lines: string[] = [];
      for (const c of await listConnections()) {
        if (only && c.id !== only) continue;
        // The operator at the console's own shell sees what an admin sees.
        for (const d of await listDestinations(c.id, "admin")) lines.push(destinationLine(c.name, d));
      }
      if (lines.length === 0)
        io.print("No destinations yet. Add one with: npm run destinations -- add --connection C --name N --url URL");
      for (const line of lines) io.print(line);
      return;
    }
    case "remove": {
      const connection = requireOption("connection", values.connection);
      const name = requireOption("name", values.name);
      const connectionId = await requireConnectionId(connection);
      const destination = (await listDestinationChoices(connectionId)).find(
        (d) => d.name.toLowerCase() === name.toLowerCase(),
      );
      if (!destination) throw new Error(`${connection} has no destination named ${name}.`);
      const result = await removeDestination(cliActor, { connectionId, destinationId: destination.id });
      if (!result.ok) throw new Error(result.error);
      io.print(`Removed ${destination.name} from ${connection}, with its queued deliveries and attempts.`);
      return;
    }
    case "replay":
      return replay(values, io);
    case "cancel-replay":
      return cancel(requireOption("replay", values.replay), io);
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : "No command given.");
  }
});

// Replay from the command line: what an operator does after an incident (Svix's "recover since").

const count = (n: number) => n.toLocaleString("en");
const events = (n: number) => `${count(n)} event${n === 1 ? "" : "s"}`;
/** How long the CLI waits for queuing that makes no progress (the destination turned off meanwhile, say). */
const STALLED_MS = 60_000;

/** An ISO 8601 time option, read as the log reads its time filters. */
function readTime(flag: string, value: string): string {
  if (!eventFiltersSchema.shape.receivedFrom.safeParse(value).success)
    throw new UsageError(`--${flag} must be an ISO 8601 time with its offset, e.g. 2026-01-31T12:00:00Z.`);
  return value;
}

async function replay(
  values: { connection?: string; name?: string; since?: string; until?: string },
  io: CliIo,
): Promise<void> {
  const connection = requireOption("connection", values.connection);
  const name = requireOption("name", values.name);
  const since = readTime("since", requireOption("since", values.since));
  const until = values.until === undefined ? undefined : readTime("until", requireOption("until", values.until));
  if (until && Date.parse(until) <= Date.parse(since)) throw new UsageError("--until must be later than --since.");
  const connectionId = await requireConnectionId(connection);
  const destination = (await listDestinationChoices(connectionId)).find(
    (d) => d.name.toLowerCase() === name.toLowerCase(),
  );
  if (!destination) throw new Error(`${connection} has no destination named ${name}.`);
  // The log's own filters for this window: every event type, received from --since to --until.
  const filters = new URLSearchParams({
    connectionId,
    type: ALL_TYPES,
    receivedFrom: since,
    ...(until ? { receivedTo: until } : {}),
  }).toString();
  const started = await startReplay(cliActor, { connectionId, destinationId: destination.id, filters });
  if (!started.ok)
    throw new Error(
      started.runningReplayId
        ? `${started.error} To cancel it: npm run destinations -- cancel-replay --replay ${started.runningReplayId}`
        : started.error,
    );
  const progress = await waitUntilQueued(started.replayId);
  const window = `received from ${since} to ${until ?? "now"}`;
  io.print(`Queued ${events(progress.queued)} ${window} to ${destination.name} (replay ${started.replayId}).`);
  if (started.skippedUnverifiedWhy) io.print(started.skippedUnverifiedWhy);
  if (started.skippedByFilters > 0)
    io.print(
      `${events(started.skippedByFilters)} left out by ${destination.name}'s own event types and verification methods.`,
    );
  if (progress.state === "cancelled") io.print("It was cancelled while it queued: what waits will not be sent.");
  io.print(
    `The console's forwarding workers send them. Follow it: GET /api/replays/${started.replayId} (an admin's token), or the log's Replay… dialog.`,
  );
  io.print(`Cancel it: npm run destinations -- cancel-replay --replay ${started.replayId}`);
}

/** Queues the replay here (or waits while another instance does), until it is all queued or cancelled. */
async function waitUntilQueued(replayId: string) {
  let lastMoved = Date.now();
  let queued = -1;
  for (;;) {
    await continueReplays();
    const progress = await getReplayProgress(replayId);
    if (!progress) throw new Error("The replay was removed with its destination while it queued.");
    if (progress.state !== "queuing") return progress;
    if (progress.queued !== queued) [queued, lastMoved] = [progress.queued, Date.now()];
    else if (Date.now() - lastMoved > STALLED_MS)
      throw new Error(
        `The replay ${replayId} has queued ${count(queued)} of ${count(progress.total)} and made no progress for a minute: is its destination turned off? It goes on when it is turned on.`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function cancel(replayId: string, io: CliIo): Promise<void> {
  const result = await cancelReplay(cliActor, { replayId });
  if (!result.ok)
    throw new Error(
      result.error === "Check the request."
        ? `--replay must be a replay's id (a UUID), not ${replayId}.`
        : result.error,
    );
  io.print(`Cancelled replay ${replayId}: ${events(result.cancelled)} that waited will not be sent.`);
}
