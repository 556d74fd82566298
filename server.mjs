// The console's production server (`npm start`, the image's entrypoint): Next's request handler on an HTTP server of
// its own, so that a stop drains instead of resetting what is in flight (docs/operations.md, "Stopping and upgrading").
// Plain JavaScript, run by node alone. At SIGTERM or SIGINT:
//   1. readiness (/api/ready) says 503 at once and the jobs take nothing new (lib/lifecycle.ts);
//   2. for CONSOLE_SHUTDOWN_DELAY_SECONDS it goes on serving as before, so a load balancer sees the 503 first;
//   3. it stops accepting, answers everything with `Connection: close` and closes each keep-alive connection when its
//      request ends (an idle one after 2 s with nothing to answer: its client may be sending on it);
//   4. the slices' stop hooks run (in-flight forwards finish or give their lease back, batches flush, the pool closes),
//      and it exits 0, at the latest CONSOLE_SHUTDOWN_GRACE_SECONDS after the signal (1 if it had to cut anything).
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { readPort } from "./scripts/ports.mjs";

process.env.NODE_ENV = "production";
process.env.NEXT_MANUAL_SIG_HANDLE = "true"; // the stop is this file's, not Next's
const dir = path.dirname(fileURLToPath(import.meta.url));
// lib/env.ts validates both (start-up refuses a bad value); these are its defaults.
const delaySeconds = Number(process.env.CONSOLE_SHUTDOWN_DELAY_SECONDS || 5);
const graceSeconds = Number(process.env.CONSOLE_SHUTDOWN_GRACE_SECONDS || 25);
/** Once the listener is closed, a kept-alive connection with nothing to answer for this long is ended. */
const IDLE_CLOSE_MS = 2_000;

/** One JSON line on stderr, in the shape of lib/logger.ts's lines. */
function log(level, message, fields = {}) {
  process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), message, ...fields })}\n`);
}

/** lib/lifecycle.ts's object, once start-up has made it (processSingleton's key). */
const lifecycle = () => globalThis[Symbol.for("tenant-console.lifecycle")]?.value;

let hostname;
let port;
try {
  hostname = process.env.HOSTNAME || "127.0.0.1";
  port = readPort("PORT", 3000);
} catch (error) {
  log("fatal", error.message);
  process.exit(1);
}

// In the image server.mjs runs from Next's standalone folder, which has no next.config.js: the build's own copy of the
// config (required-server-files.json), handed to Next as the standalone server.js it generates does.
const distDir = process.env.NEXT_DIST_DIR || ".next";
if (!fs.existsSync(path.join(dir, "next.config.js"))) {
  const files = JSON.parse(fs.readFileSync(path.join(dir, distDir, "required-server-files.json"), "utf8"));
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(files.config);
}
const { default: next } = await import("next");
const app = next({ dev: false, dir, hostname, port });
/** Set when the listener closes: from then on every answer ends its connection. */
let closing = false;
const answering = new Set();
/** Each open connection, and since when it has had nothing to answer (null while it has). */
const idleSince = new Map();
let handle;
const server = http.createServer((request, response) => {
  if (closing) response.shouldKeepAlive = false;
  answering.add(response);
  idleSince.set(request.socket, null);
  response.once("close", () => {
    answering.delete(response);
    if (idleSince.has(request.socket)) idleSince.set(request.socket, Date.now());
  });
  if (handle) handle(request, response);
  else {
    response.writeHead(503, { "Content-Type": "application/json", "Retry-After": "1" });
    response.end(JSON.stringify({ status: "starting" }));
  }
});
// A client (a load balancer: 60 s idle is common; Node's fetch) closes a kept-alive connection before the server
// does, never the other way round: Node's 5 s default had the server end one while its client was sending on it.
server.keepAliveTimeout = 65_000;
server.on("connection", (socket) => {
  idleSince.set(socket, Date.now());
  socket.once("close", () => idleSince.delete(socket));
});
server.headersTimeout = 66_000;
server.listen(port, hostname);
await new Promise((resolve, reject) => server.once("listening", resolve).once("error", reject)).catch((error) => {
  log("fatal", "the server could not listen", { address: `${hostname}:${port}`, error: error.message });
  process.exit(1);
});
try {
  await app.prepare();
  handle = app.getRequestHandler();
} catch (error) {
  log("fatal", "the console could not start", { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
log("info", "serving", { address: `http://${hostname}:${port}` });

let stopping = false;
async function stop(signal) {
  if (stopping) {
    if (signal === "SIGINT") process.exit(130); // a second Ctrl-C: at once
    return;
  }
  stopping = true;
  const started = Date.now();
  const deadline = started + graceSeconds * 1000;
  const forced = setTimeout(() => {
    log("error", "the stop ran past its grace period; exiting", { graceSeconds });
    process.exit(1);
  }, deadline - started);
  forced.unref();
  lifecycle()?.beginDraining();
  log("info", "stopping: readiness says 503", { signal, delaySeconds, graceSeconds });
  await new Promise((resolve) => setTimeout(resolve, delaySeconds * 1000));

  // Only now, in the tick that closes: a `Connection: close` sent earlier sends clients to reconnect, and closing the
  // listener resets the connections still waiting in the kernel's queue to be accepted.
  closing = true;
  for (const response of answering) if (!response.headersSent) response.shouldKeepAlive = false;
  // net's close, not http's: since Node 19 http's also ends every idle connection at once, racing a request its
  // client may be sending on one.
  const closed = new Promise((resolve) => net.Server.prototype.close.call(server, resolve));
  // Not Node's closeIdleConnections: a request its client sent that this thread has not read yet (a busy embedded
  // database holds the event loop) leaves a connection looking idle, and ending it resets that request.
  const sweep = setInterval(() => {
    for (const [socket, since] of idleSince)
      if (since !== null && Date.now() - since >= IDLE_CLOSE_MS) socket.destroy();
  }, 250);
  const cut = setTimeout(() => server.closeAllConnections(), Math.max(0, deadline - 1000 - Date.now()));
  log("info", "stopping: the listener is closed; ending connections");
  await closed;
  clearInterval(sweep);
  clearTimeout(cut);

  await lifecycle()?.stop(deadline);
  await app.close();
  log("info", "stopped", { seconds: (Date.now() - started) / 1000 });
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => void stop(signal));
