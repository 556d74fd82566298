import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it, vi } from "vitest";

import { openTestPglite } from "@/lib/testing/database";

import { DatabaseBusyError } from "./index";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "data-dir-lock-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the embedded database's lock on its folder", () => {
  it("is released on close: the pid file goes, and no exit listener stays behind", async () => {
    const dataDir = path.join(root, "closed", "pglite");
    // The lock's own listener, not a count: a shared thread's other files may add exit listeners of
    // their own (the logger's flush of repeat counts) while this test runs.
    const registering = vi.spyOn(process, "once");
    const handle = await openTestPglite(dataDir);
    const lockListeners = registering.mock.calls.filter(([event]) => event === "exit").map(([, listener]) => listener);
    registering.mockRestore();
    expect(lockListeners).toHaveLength(1);
    expect(process.listeners("exit")).toContain(lockListeners[0]);
    expect(fs.readFileSync(path.join(root, "closed", "pglite.pid"), "utf8")).toBe(String(process.pid));
    await handle.close();
    expect(fs.existsSync(path.join(root, "closed", "pglite.pid"))).toBe(false);
    expect(process.listeners("exit")).not.toContain(lockListeners[0]);
  });

  it("refuses a folder another live process holds, saying which and what to do", async () => {
    const dataDir = path.join(root, "held", "pglite");
    fs.mkdirSync(dataDir, { recursive: true });
    // The Vitest process that started this thread: alive, and not this one.
    fs.writeFileSync(path.join(root, "held", "pglite.pid"), String(process.ppid));
    const opening = openTestPglite(dataDir);
    await expect(opening).rejects.toThrow(DatabaseBusyError);
    await expect(opening).rejects.toThrow(`in use by another process (pid ${process.ppid})`);
  });
});
