import { loadSeedFile, REGIONS, startEmulator, type RunningEmulator } from "@/emulator/server";

export const demoSeed = loadSeedFile("emulator/seeds/demo.json");

export function demoTenant(name: "Acme" | "Globex") {
  const tenant = demoSeed.tenants.find((t) => t.name === name);
  if (!tenant) throw new Error(`No tenant ${name} in the demo seed`);
  return tenant;
}

/**
 * Starts the emulator with the demo seed (no background tick: tests move its clock) and points every
 * region's base address at it. Call before the first env() read of the test file.
 */
export async function startTestEmulator(): Promise<RunningEmulator> {
  const emulator = await startEmulator({ port: 0, seed: demoSeed, backgroundTick: false });
  for (const region of REGIONS) process.env[`SERVICE_BASE_URL_${region.toUpperCase()}`] = emulator.baseUrl(region);
  return emulator;
}

/** Calls the emulator's control API and returns its JSON answer. */
export async function emulatorControl<T = unknown>(
  emulator: RunningEmulator,
  path: string,
  method = "GET",
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${emulator.url}/_emulator/${path}`, {
    method,
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`emulator ${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
