/** The service emulator as a child process on an ephemeral port, and its fault control API. */
import type { ChildProcess } from "node:child_process";
import path from "node:path";

import { startProcess, stopProcess, waitForUrl } from "@/tooling/processes";

export type Emulator = { url: string; child: ChildProcess; stop: () => void };

export async function startEmulator(seed = "emulator/seeds/demo.json"): Promise<Emulator> {
  const child = startProcess(
    "emulator",
    path.resolve("node_modules/.bin/tsx"),
    ["emulator/main.ts", "--port", "0", "--seed", seed],
    process.env,
  );
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the emulator did not start within 30 s:\n${output}`)), 30_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace(/\/$/, ""));
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk));
    child.once("exit", (code) => reject(new Error(`the emulator exited with code ${code}:\n${output}`)));
  });
  await waitForUrl(`${url}/_emulator/clock`, 30_000, child);
  return { url, child, stop: () => stopProcess(child) };
}

/**
 * SERVICE_BASE_URL_* pointing every region at the emulator, and a 3 s service timeout, so the hang fault's pages answer
 * sooner.
 */
export function serviceEnv(emulatorUrl: string): Record<string, string> {
  const baseUrls = Object.fromEntries(
    ["US", "EU", "AU", "CA"].map((r) => [`SERVICE_BASE_URL_${r}`, `${emulatorUrl}/${r.toLowerCase()}/v1`]),
  );
  return { ...baseUrls, SERVICE_TIMEOUT_MS: "3000" };
}

export async function setFault(
  emulatorUrl: string,
  fault: { region: string; mode: "500" | "429" | "hang"; count?: number; seconds?: number },
): Promise<void> {
  const response = await fetch(`${emulatorUrl}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(fault),
  });
  if (!response.ok) throw new Error(`the emulator refused the fault: ${response.status} ${await response.text()}`);
}

export async function clearFaults(emulatorUrl: string): Promise<void> {
  await fetch(`${emulatorUrl}/_emulator/faults`, { method: "DELETE" });
}
