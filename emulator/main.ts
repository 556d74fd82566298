import { parseArgs } from "node:util";

import { loadSeedFile, REGIONS, startEmulator } from "./server";

const DEFAULT_SEED = "emulator/seeds/demo.json";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: "string" }, seed: { type: "string" } },
    allowPositionals: false,
  });
  const port = Number(values.port ?? process.env.EMULATOR_PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`Invalid port: ${values.port ?? process.env.EMULATOR_PORT}`);
  const seedPath = values.seed ?? process.env.EMULATOR_SEED ?? DEFAULT_SEED;
  // EMULATOR_HOST=0.0.0.0 (the image's demo, compose.yaml): the consoles reach it from their own containers.
  const hostSetting = process.env.EMULATOR_HOST || "127.0.0.1";
  if (hostSetting !== "127.0.0.1" && hostSetting !== "0.0.0.0")
    throw new Error(`EMULATOR_HOST must be 127.0.0.1 or 0.0.0.0, not ${JSON.stringify(hostSetting)}`);
  const emulator = await startEmulator({ port, host: hostSetting, seed: loadSeedFile(seedPath) });

  console.log(`Service emulator listening on ${emulator.url} (seed: ${seedPath})`);
  for (const region of REGIONS) console.log(`  ${region}: ${emulator.baseUrl(region)}`);
  console.log(`  control: ${emulator.url}/_emulator/state`);

  const shutdown = (signal: string): void => {
    console.log(`Received ${signal}, shutting down.`);
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
