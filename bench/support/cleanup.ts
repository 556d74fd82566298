/**
 * What must not outlive the bench (consoles, a temporary PostgreSQL cluster, data directories) even
 * when it is interrupted: each resource registers its teardown, which the owner runs (and unregisters)
 * when done; Ctrl-C or SIGTERM runs whatever is still registered, newest first, and exits.
 */
type Teardown = () => Promise<void>;

const pending = new Set<Teardown>();
let interrupted = false;

export function onCleanup(teardown: Teardown): () => void {
  installHandlers();
  pending.add(teardown);
  return () => void pending.delete(teardown);
}

let installed = false;
function installHandlers(): void {
  if (installed) return;
  installed = true;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`\n${signal}: cleaning up…`);
      void runAll().finally(() => process.exit(130));
    });
  }
}

/** Runs every registered teardown, newest first; a failing one does not stop the others. */
export async function runAll(): Promise<void> {
  for (const teardown of [...pending].reverse()) {
    pending.delete(teardown);
    await teardown().catch((error: unknown) => console.error(`cleanup failed: ${(error as Error).message}`));
  }
}
