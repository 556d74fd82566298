import { backupDataDir } from "@/lib/db/backup";

import { describeCounts, embeddedDataDir, parseFileOptions } from "./backup-common";
import { defineCli } from "./cli";

const usage = `Usage: npm run backup -- --out FILE [--force]
  Writes the embedded database (PGlite in CONSOLE_DATA_DIR) to FILE, a gzip tarball, as it is: written to
  FILE.tmp and then renamed, so FILE is never half-written. Run it while the console is stopped (one process
  at a time). FILE holds the connections' keys encrypted with CONSOLE_ENCRYPTION_KEY: keep that key too.
  --force   replaces an existing FILE
  With DATABASE_URL set, use pg_dump instead (exit code 2).`;

/** "4.8 MiB", or "310.2 KiB" under a mebibyte. */
function mebibytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export const backupCli = defineCli(import.meta.url, usage, async (argv, io) => {
  const { file, force } = parseFileOptions(argv, "out");
  const dataDir = embeddedDataDir('pg_dump -Fc "$DATABASE_URL" -f console.dump');
  const { bytes, counts } = await backupDataDir(dataDir, file, { force });
  io.print(`Wrote ${file} (${mebibytes(bytes)}) from ${dataDir}: ${describeCounts(counts)}.`);
});
