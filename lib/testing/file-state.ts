import { afterAll, vi } from "vitest";

import { snapshotProcessState } from "./process-state";

/**
 * Runs before each test file in a shared worker thread (vitest.config.ts). The file starts on fresh
 * modules of its own, as in a thread of its own (the packages stay loaded: Node keeps them), and what it
 * changed of the environment and of globalThis is put back after its own teardown (after-all hooks run
 * last-registered first, so this one last).
 */
vi.resetModules();
afterAll(snapshotProcessState());
