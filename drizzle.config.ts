import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: [
    "./lib/db/schema.ts",
    "./lib/db/forwarding-schema.ts",
    "./lib/db/alerts-schema.ts",
    "./lib/db/tokens-schema.ts",
    "./lib/db/erasure-schema.ts",
  ],
  out: "./lib/db/migrations",
});
