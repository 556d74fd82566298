import type { TestProject } from "vitest/node";

import { migratedPgliteTemplate, migratedPostgresTemplate } from "./templates";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (dumpDataDir), for lib/testing/database.ts. */
    pgliteTemplate: string;
    /** On a run against PostgreSQL (DATABASE_URL), the migrated database a test file's own is a copy of. */
    postgresTemplate: string;
  }
}

/** Every test file starts its database as a copy of one migrated template (lib/testing/templates.ts). */
export default async function setup(project: TestProject) {
  project.provide("pgliteTemplate", await migratedPgliteTemplate());
  const adminUrl = process.env.DATABASE_URL;
  project.provide("postgresTemplate", adminUrl ? await migratedPostgresTemplate(adminUrl) : "");
}
