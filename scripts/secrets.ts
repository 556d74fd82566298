import { rotateStoredSecrets } from "@/lib/connections/rotate";

import { defineCli, parseCommand, UsageError } from "./cli";

const usage = `Usage: npm run secrets -- <command>
  rotate    re-encrypt every stored key and webhook token under the current CONSOLE_ENCRYPTION_KEY, bound to
            its connection and purpose (values stored by consoles before binding are re-bound).
            To change the key, set the new one as CONSOLE_ENCRYPTION_KEY and the old one in
            CONSOLE_PREVIOUS_ENCRYPTION_KEYS first; once this has run, the old key can be removed.`;

defineCli(import.meta.url, usage, async (argv, io) => {
  const { command } = parseCommand(argv, {});
  if (command !== "rotate") throw new UsageError(command ? `Unknown command: ${command}` : "No command given.");
  const { rebound, reencrypted, current, unreadable } = await rotateStoredSecrets();
  io.print(
    `Re-bound ${rebound} stored secret(s) to their connection and purpose; re-encrypted ${reencrypted} under the current key; ${current} already bound and current.`,
  );
  if (unreadable > 0) {
    // The warnings above name each row; the value itself is never printed.
    throw new Error(
      `${unreadable} stored secret(s) could not be read and were left as they were: add the key that sealed them to ` +
        "CONSOLE_PREVIOUS_ENCRYPTION_KEYS and run this again, or, for a value not bound to its connection, enter the key again or regenerate the webhook URL.",
    );
  }
});
