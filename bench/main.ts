/**
 * npm run bench [-- part…]: every part, or those named, on PGlite and then on PostgreSQL (BENCH_BACKENDS for one).
 * What each part measures, its knobs and the last figures: docs/performance.md ("The benchmark", "How each part
 * measures"). PostgreSQL is DATABASE_URL, else a temporary cluster (./support/postgres.ts).
 */
import { prepareOwnEnv, rowsOf, setAdminUrl } from "./reliability/server";
import { runAll } from "./support/cleanup";
import { ensureBuild } from "./support/console";
import { disposeSharedDataset } from "./support/dataset";
import type { BackendContext, Part } from "./support/part";
import { startPostgres } from "./support/postgres";
import type { BackendKey } from "./support/report";

// The consoles this process starts share its secrets, so what it seeds (sealed keys, users) they can read.
prepareOwnEnv();

const parts: Record<string, { http: boolean; load: () => Promise<Part> }> = {
  ingest: { http: true, load: async () => (await import("./ingest")).ingestPart },
  query: { http: true, load: async () => (await import("./query")).queryPart },
  export: { http: true, load: async () => (await import("./export")).exportPart },
  page: { http: true, load: async () => (await import("./page")).pagePart },
  overview: { http: false, load: async () => ({ run: async () => (await import("./overview")).runOverviewBench() }) },
  retention: { http: false, load: async () => (await import("./retention")).retentionPart },
  "signin-flood": { http: true, load: async () => (await import("./signin-flood")).signinFloodPart },
  "token-flood": { http: true, load: async () => (await import("./signin-flood")).tokenFloodPart },
  forward: { http: true, load: async () => (await import("./forward")).forwardPart },
  metrics: { http: false, load: async () => (await import("./metrics")).metricsPart },
  traces: { http: false, load: async () => (await import("./traces")).tracesPart },
};

function chosenBackends(): BackendKey[] {
  const asked = process.env.BENCH_BACKENDS?.split(",")
    .map((s) => s.trim())
    .filter(Boolean) ?? ["pglite", "postgres"];
  const unknown = asked.filter((b) => b !== "pglite" && b !== "postgres");
  if (unknown.length > 0) throw new Error(`BENCH_BACKENDS: ${unknown.join(", ")} is no backend (pglite, postgres).`);
  return asked as BackendKey[];
}

async function main(): Promise<number> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(name in parts));
  if (unknown.length > 0)
    throw new Error(`No bench part ${unknown.join(", ")}: the parts are ${Object.keys(parts).join(", ")}.`);
  const names = asked.length > 0 ? asked : Object.keys(parts);
  if (names.some((name) => parts[name]!.http)) ensureBuild();
  const chosen: Array<[string, Part]> = [];
  for (const name of names) chosen.push([name, await parts[name]!.load()]);

  const givenUrl = process.env.DATABASE_URL;
  const failures: string[] = [];
  for (const key of chosenBackends()) {
    let stopPostgres = async () => {};
    try {
      let backend: BackendContext;
      if (key === "pglite") {
        // overview.ts and lib/testing read DATABASE_URL at call time: unset, they use PGlite.
        delete process.env.DATABASE_URL;
        setAdminUrl("");
        backend = { key, database: "PGlite (data directory)" };
      } else {
        const server = await startPostgres();
        if ("skipped" in server) {
          console.log(`\n== PostgreSQL column skipped: ${server.skipped}.`);
          for (const [, part] of chosen) part.skip?.("postgres", server.skipped);
          continue;
        }
        stopPostgres = server.stop;
        process.env.DATABASE_URL = server.url;
        setAdminUrl(server.url);
        backend = {
          key,
          database: `PostgreSQL ${(await serverVersion(server.url)).split(" ")[0]} (${server.description})`,
        };
      }
      for (const [name, part] of chosen) {
        console.log(`\n== bench: ${name} on ${backend.database} ==`);
        try {
          await part.run(backend);
        } catch (error) {
          console.error(error);
          failures.push(`${name} on ${key}`);
        }
      }
    } finally {
      // The loaded events of query/export/page belong to this backend's server.
      await disposeSharedDataset();
      await stopPostgres();
      if (givenUrl === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = givenUrl;
    }
  }
  for (const [, part] of chosen) part.print?.();
  if (failures.length > 0) console.log(`\nFailed: ${failures.join(", ")}.`);
  return failures.length > 0 ? 1 : 0;
}

async function serverVersion(url: string): Promise<string> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return rowsOf<{ server_version: string }>(await client.query("show server_version"))[0]!.server_version;
  } finally {
    await client.end();
  }
}

main().then(
  async (code) => {
    await runAll();
    process.exit(code);
  },
  async (error: unknown) => {
    console.error(error);
    await runAll();
    process.exit(1);
  },
);
