// compose.yaml, parsed (neither docker compose nor podman-compose is installed here): the services docs/operations.md
// describes ("Running it in containers"), the order they start in, their health checks and volumes, and the demo
// profile's additions.
import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";

const service = z.object({
  image: z.string().optional(),
  build: z.string().optional(),
  command: z.array(z.string()).optional(),
  profiles: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  healthcheck: z.object({ test: z.array(z.string()) }).optional(),
  volumes: z.array(z.string()).optional(),
  ports: z.array(z.string()).optional(),
  network_mode: z.string().optional(),
  stop_grace_period: z.string().optional(),
  restart: z.string().optional(),
});
const composeFile = z.object({ services: z.record(z.string(), service), volumes: z.record(z.string(), z.unknown()) });

// merge: compose's own reading of `<<` (the consoles share one definition).
const compose = composeFile.parse(
  parse(fs.readFileSync(path.resolve(import.meta.dirname, "../compose.yaml"), "utf8"), { merge: true }),
);
const { services } = compose;
const consoles = ["console-1", "console-2"] as const;
/** The services `docker compose up` starts: those of no profile. */
const byDefault = Object.keys(services).filter((name) => !services[name]!.profiles);

describe("compose.yaml", () => {
  it("runs PostgreSQL with a named volume and pg_isready as its health check", () => {
    const postgres = services.postgres!;
    expect(postgres.image).toMatch(/^postgres:\d+/);
    const [volume] = postgres.volumes ?? [];
    expect(volume).toBe("postgres-data:/var/lib/postgresql/data");
    expect(Object.keys(compose.volumes)).toContain("postgres-data");
    expect(postgres.healthcheck?.test).toEqual(expect.arrayContaining(["CMD", "pg_isready"]));
  });

  it("migrates once, after PostgreSQL is healthy, before any console starts", () => {
    const migrate = services.migrate!;
    expect(migrate.command).toEqual(["db:migrate"]);
    expect(migrate.restart).toBe("no");
    expect(migrate.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    for (const name of consoles) {
      expect(services[name]!.depends_on).toEqual({ migrate: { condition: "service_completed_successfully" } });
    }
  });

  it("runs two consoles of the image on the one PostgreSQL, each with the readiness health check", () => {
    expect(byDefault.sort()).toEqual(["console-1", "console-2", "migrate", "postgres"]);
    const urls = consoles.map((name) => services[name]!.environment?.DATABASE_URL);
    expect(urls[0]).toMatch(/@postgres:5432\//);
    expect(urls[1]).toBe(urls[0]);
    for (const name of consoles) {
      const console = services[name]!;
      expect(console.build).toBe(".");
      expect(console.healthcheck?.test).toEqual(["CMD", "node", "/app/healthcheck.mjs"]);
      // server.mjs's grace (25 s) fits inside the stop's.
      expect(console.stop_grace_period).toBe("30s");
      // The required secrets come from the operator's environment, never from this file.
      expect(console.environment?.NEXTAUTH_SECRET).toMatch(/^\$\{NEXTAUTH_SECRET:\?/);
      expect(console.environment?.CONSOLE_ENCRYPTION_KEY).toMatch(/^\$\{CONSOLE_ENCRYPTION_KEY:\?/);
    }
    const published = consoles.map((name) => services[name]!.ports?.[0]);
    expect(new Set(published).size).toBe(2);
  });

  it("adds the emulator and a seed of the demo's tenant in the demo profile, after the migration", () => {
    const demo = Object.keys(services).filter((name) => services[name]!.profiles?.includes("demo"));
    expect(demo.sort()).toEqual(["demo-seed", "emulator"]);
    expect(services.emulator!.command?.[0]).toBe("emulator");
    expect(services.emulator!.environment?.EMULATOR_HOST).toBe("0.0.0.0");
    const seed = services["demo-seed"]!;
    expect(seed.command).toEqual(["demo-seed"]);
    // The emulator's control API answers loopback callers only: the seed shares its network namespace.
    expect(seed.network_mode).toBe("service:emulator");
    expect(seed.depends_on).toEqual({
      migrate: { condition: "service_completed_successfully" },
      emulator: { condition: "service_healthy" },
    });
  });

  it("runs commands the image's entrypoint knows", () => {
    const entrypoint = fs.readFileSync(path.resolve(import.meta.dirname, "../tooling/image/entrypoint.sh"), "utf8");
    // The names of its `case` patterns (`  users | connections | …)`).
    const known = [...entrypoint.matchAll(/^\s+([\w:-]+(?:\s*\|\s*[\w:-]+)*)\)/gm)].flatMap((m) =>
      m[1]!.split(/\s*\|\s*/),
    );
    expect(known).toEqual(expect.arrayContaining(["users", "db:migrate", "emulator"]));
    for (const [name, { command, image }] of Object.entries(services)) {
      if (command && image === "tenant-console") expect(known, name).toContain(command[0]);
    }
  });
});
