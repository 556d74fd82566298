import { findConnectionIdByName } from "@/lib/connections/repository";
import { DELIVERED_FORWARDS_STAY } from "@/lib/erasure/constants";
import { countsInWords } from "@/lib/erasure/display";
import { eraseEndUserData, previewEndUserErasure } from "@/lib/erasure/erasure";
import { endUserErasureSchema } from "@/lib/erasure/schemas";
import { userPseudonym } from "@/lib/erasure/user-hash";

import { cliActor, defineCli, parseCommand, requireOption } from "./cli";

const usage = `Usage: npm run erase -- --user-id U [--connection C] [--dry-run]
  Erases everything the console holds about end user U (GDPR's right to erasure): their events, the
  rejections of those events, their forwards' queued deliveries and recorded attempts, the watch list
  entries that name them; audit records and replays' filters that name their id, email or phone number
  keep what happened with those replaced by [erased]. In connection C (its name or id), or in every one.
  Audited as end_user.erased with a keyed hash of the id, never the id itself.
  --dry-run   counts what it would erase, and erases nothing
  ${DELIVERED_FORWARDS_STAY}
  On the embedded database, run it while the console is stopped. One cut short is finished by the
  console's next start, or by running this again for the same user.`;

/** The connection named (or given by id), or null for every connection. */
async function readConnection(value: string | undefined): Promise<string | null> {
  if (value === undefined) return null;
  const connection = requireOption("connection", value);
  const id =
    (await findConnectionIdByName(connection)) ??
    endUserErasureSchema.shape.connectionId.safeParse(connection).data ??
    undefined;
  if (!id) throw new Error(`No connection named ${connection}.`);
  return id;
}

export const eraseCli = defineCli(import.meta.url, usage, async (argv, io) => {
  // One command, so no command's name before the options, as parseCommand reads them.
  const { values } = parseCommand(["erase", ...argv], {
    "user-id": { type: "string" },
    connection: { type: "string" },
    "dry-run": { type: "boolean" },
  });
  const input = {
    userId: requireOption("user-id", values["user-id"]),
    connectionId: await readConnection(values.connection),
  };
  if (values["dry-run"]) {
    const preview = await previewEndUserErasure(input);
    if (!preview.ok) throw new Error(preview.error);
    for (const c of preview.connections) io.print(`${c.connectionName}\t${countsInWords(c)}`);
    io.print(
      `Would erase ${countsInWords(preview.total)} in ${preview.connectionName ?? "every connection"}; nothing was erased.`,
    );
    if (preview.erasedBefore.count > 0)
      io.print(`Erased before: ${preview.erasedBefore.count} time(s), last at ${preview.erasedBefore.lastAt}.`);
    return;
  }
  const result = await eraseEndUserData(cliActor, input);
  if (!result.ok) throw new Error(result.error);
  io.print(`Erased ${countsInWords(result.erased)}. The audit log names the user ${userPseudonym(result.userIdHash)}.`);
  io.print(DELIVERED_FORWARDS_STAY);
});
