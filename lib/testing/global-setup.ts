import type { TestProject } from "vitest/node";
import { migratedPgliteTemplate } from "./pglite-template";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (dumpDataDir), for lib/testing/database.ts. */
    pgliteTemplate: string;
  }
}

/** Every test file that uses the embedded database starts its own as a copy of one migrated template. */
export default async function setup(project: TestProject) {
  project.provide("pgliteTemplate", await migratedPgliteTemplate());
}
