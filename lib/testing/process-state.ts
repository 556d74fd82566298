/**
 * What a test file may change of the process it runs in and leave behind for the files after it in a
 * shared worker thread (vitest.config.ts): environment variables, and properties of globalThis (the
 * installed database, a job's state). Returns what puts both back as they were when it was called.
 */
export function snapshotProcessState(): () => void {
  const envAtStart = { ...process.env };
  const globalsAtStart = new Set(Reflect.ownKeys(globalThis));
  return () => {
    for (const key of Object.keys(process.env)) if (!(key in envAtStart)) delete process.env[key];
    Object.assign(process.env, envAtStart);
    for (const key of Reflect.ownKeys(globalThis))
      if (!globalsAtStart.has(key)) Reflect.deleteProperty(globalThis, key);
  };
}
