import { restoreDataDir } from "@/lib/db/backup";

import { describeCounts, embeddedDataDir, parseFileOptions } from "./backup-common";
import { defineCli } from "./cli";

const usage = `Usage: npm run restore -- --in FILE [--force]
  Restores a backup (npm run backup) into the embedded database's folder (CONSOLE_DATA_DIR), then applies
  the migrations of this release. Run it while the console is stopped, with the CONSOLE_ENCRYPTION_KEY of
  the backed-up console (its keys are encrypted with it). A file that is not a backup changes nothing.
  --force   restores over an existing database: moves it aside first, beside it, as
            pglite.before-restore-<time> (delete that once the restored console works)
  With DATABASE_URL set, use pg_restore instead (exit code 2).`;

export const restoreCli = defineCli(import.meta.url, usage, async (argv, io) => {
  const { file, force } = parseFileOptions(argv, "in");
  const dataDir = embeddedDataDir('pg_restore --clean --if-exists -d "$DATABASE_URL" console.dump');
  const { counts, movedAside } = await restoreDataDir(dataDir, file, { force });
  if (movedAside) io.print(`Moved the database that was in ${dataDir} aside, to ${movedAside}.`);
  io.print(`Restored ${file} into ${dataDir} and migrated it: ${describeCounts(counts)}.`);
});
