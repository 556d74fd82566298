import fs from "node:fs";
import path from "node:path";

/** The folders whose *.test.ts files Vitest runs. */
export const testFolders = ["lib", "emulator", "scripts", "app", "tooling", "docs"];

/**
 * What makes a test file need a worker thread of its own: replacing a module (vi.mock), which would stay
 * replaced for the files after it in a shared thread, or starting the console's background jobs
 * (lib/startup.ts: the forwarding worker, alert and retention timers), which would go on running into them.
 */
const needsOwnThread = /\bvi\.(mock|doMock)\(|\bstartUp\(/;

/** The test files under `root` that need a thread of their own, as glob patterns (app/(console)/… names a folder, not a group). */
export function testFilesNeedingOwnThread(root: string): string[] {
  return testFolders
    .filter((folder) => fs.existsSync(path.join(root, folder)))
    .flatMap((folder) =>
      fs
        .readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".test.ts"))
        .map((file) => path.join(folder, file)),
    )
    .filter((file) => needsOwnThread.test(fs.readFileSync(path.join(root, file), "utf8")))
    .map((file) => file.replace(/[()[\]{}*?!+@]/g, "\\$&"));
}
