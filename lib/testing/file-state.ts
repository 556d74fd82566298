import { afterAll, vi } from "vitest";

import { snapshotProcessState } from "./process-state";

/**
 * Runs before each test file in a shared worker thread (vitest.config.ts): the file starts on fresh modules of its
 * own (the packages stay loaded), and what it changed of the environment and globalThis is put back after its own
 * teardown (after-all hooks run last-registered first, so this one last).
 */
vi.resetModules();
afterAll(snapshotProcessState());
