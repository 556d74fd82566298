// The image's HEALTHCHECK (no curl in it): exits 0 when /api/ready answers 200, 1 otherwise (starting, draining,
// the database unavailable, or no answer within 4 s). Asks the address server.mjs listens on (HOSTNAME, PORT);
// for a wildcard one, the loopback.
const host = process.env.HOSTNAME || "127.0.0.1";
const target = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
const url = `http://${target}:${process.env.PORT || 3000}/api/ready`;
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(4000) });
  console.log(`${url}: ${response.status}`);
  process.exit(response.status === 200 ? 0 : 1);
} catch (error) {
  console.log(`${url}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
