import { rotateStoredSecrets } from "@/lib/connections/rotate";
import { parseCommand, runCli, UsageError } from "./cli";

const usage = `Usage: npm run secrets -- <command>
  rotate    re-encrypt every stored key and webhook token under the current CONSOLE_ENCRYPTION_KEY.
            Set the new key as CONSOLE_ENCRYPTION_KEY and the old one in CONSOLE_PREVIOUS_ENCRYPTION_KEYS
            first; once this has run, the old key can be removed.`;

runCli(usage, async () => {
  const { command } = parseCommand(process.argv.slice(2), {});
  if (command !== "rotate") throw new UsageError(command ? `Unknown command: ${command}` : "No command given.");
  const { reencrypted, current } = await rotateStoredSecrets();
  console.log(`Re-encrypted ${reencrypted} stored secret(s); ${current} already used the current key.`);
});
