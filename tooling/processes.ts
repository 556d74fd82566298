import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";

/** Starts a long-running child with its output prefixed, killed with its whole process group. */
export function startProcess(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const forward = (stream: NodeJS.ReadableStream | null) =>
    stream?.on("data", (chunk: Buffer) => {
      if (process.env.E2E_VERBOSE) process.stdout.write(`[${name}] ${chunk}`);
    });
  forward(child.stdout);
  forward(child.stderr);
  return child;
}

/**
 * Starts the console's production server (server.mjs, what `npm start` runs) on 127.0.0.1:`port`, serving the build in
 * env's NEXT_DIST_DIR (.next by default). Its stop skips the delay meant for a load balancer unless env sets one.
 */
export function startConsoleServer(name: string, port: number, env: NodeJS.ProcessEnv): ChildProcess {
  return startProcess(name, process.execPath, [path.resolve("server.mjs")], {
    CONSOLE_SHUTDOWN_DELAY_SECONDS: "0",
    ...env,
    HOSTNAME: "127.0.0.1",
    PORT: String(port),
  });
}

/**
 * Stops a child started by startProcess and its process group: SIGTERM, then SIGKILL after `graceMs` (a busy server
 * would otherwise outlive its run, taking the CPU from the next); with 0, SIGKILL at once, as a crash would. Resolves
 * once it has exited, and kills whatever of its group is left.
 */
export async function stopProcess(child: ChildProcess | undefined, { graceMs = 5_000 } = {}): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const pid = child.pid;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      /* the group is gone */
    }
  };
  const exited = once(child, "exit");
  if (graceMs > 0) signalGroup("SIGTERM");
  const kill = setTimeout(() => signalGroup("SIGKILL"), graceMs);
  await exited;
  clearTimeout(kill);
  signalGroup("SIGKILL");
}

/** Runs a command to completion; rejects with its output when it fails. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c));
    child.stderr.on("data", (c: Buffer) => (output += c));
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} failed:\n${output}`)),
    );
  });
}

/** Polls a URL until it answers with the expected status, or fails after the timeout. */
export async function waitForUrl(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}
