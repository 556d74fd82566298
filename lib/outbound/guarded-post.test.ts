import dns, { type LookupAddress } from "node:dns";
import http from "node:http";
import { isIP, type AddressInfo } from "node:net";

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import type { ResolveAll } from "./address-policy";
import { postGuarded } from "./guarded-post";

// Real sockets, on this machine only: every server listens on 127.0.0.1 or 127.0.0.2, and every refused
// target is 127.0.0.2, ::1, localhost, or a made-up .invalid name a stand-in resolver maps to one of those,
// so even a wrong guard cannot send anything off the machine.

const policy = { allowedHosts: ["127.0.0.1"] };

// Belt and braces for that rule: were postGuarded to lose the stand-in resolver, a made-up name would go to
// real DNS, whose answer could be anywhere. So only localhost (the hosts file's) and IP literals (which
// server.listen passes through dns.lookup) are looked up for real. Node's net reads dns.lookup, and
// resolveWithDns dns.promises.lookup, when it calls them.
beforeAll(() => {
  const { lookup } = dns;
  const { lookup: lookupAll } = dns.promises;
  const local = (hostname: string) => hostname === "localhost" || isIP(hostname) !== 0;
  const refused = (hostname: string) =>
    Object.assign(new Error(`no real DNS in this test for ${hostname}`), { code: "ENOTFOUND" });
  vi.spyOn(dns.promises, "lookup").mockImplementation(((hostname: string, options: dns.LookupAllOptions) =>
    local(hostname) ? lookupAll(hostname, options) : Promise.reject(refused(hostname))) as typeof dns.promises.lookup);
  vi.spyOn(dns, "lookup").mockImplementation(((hostname: string, ...rest: [dns.LookupOptions, () => void]) =>
    local(hostname)
      ? lookup(hostname, ...rest)
      : process.nextTick(rest.at(-1) as (error: Error) => void, refused(hostname))) as typeof dns.lookup);
});

afterAll(() => {
  vi.restoreAllMocks();
});

type TestServer = {
  port: number;
  connections: () => number;
  requests: { url: string; body: string; header: string | undefined }[];
};

const servers: http.Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** A server on `host` that records each connection and request, then answers with `handler` ("ok" by default). */
async function serve(
  host: string,
  handler: http.RequestListener = (_request, response) => response.end("ok"),
): Promise<TestServer> {
  let connections = 0;
  const requests: TestServer["requests"] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({
        url: request.url ?? "",
        body: Buffer.concat(chunks).toString(),
        header: request.headers["x-test"] as string | undefined,
      });
      handler(request, response);
    });
  });
  server.on("connection", () => (connections += 1));
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  return { port: (server.address() as AddressInfo).port, connections: () => connections, requests };
}

/** A stand-in resolver for made-up names; any other name is not found (and never asked of real DNS). */
function resolver(table: Record<string, string>): ResolveAll {
  return async (hostname) => {
    const address = table[hostname];
    if (!address) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return [{ address, family: address.includes(":") ? 6 : 4 } satisfies LookupAddress];
  };
}

const post = (url: string, options: Partial<Parameters<typeof postGuarded>[1]> = {}) =>
  postGuarded(url, { body: "{}", policy, ...options });

describe("postGuarded: the address policy", () => {
  it("requires https unless the host is allowed, and refuses credentials in the URL, before connecting", async () => {
    const trap = await serve("127.0.0.2");
    const lookup = resolver({ "rebind.invalid": "127.0.0.2" });
    const plain = await post(`http://rebind.invalid:${trap.port}/`, { lookup });
    expect(plain).toMatchObject({ kind: "failed", reason: "invalid_url", words: expect.stringContaining("https") });
    const allowed = await serve("127.0.0.1");
    const credentials = await post(`http://user:pass@127.0.0.1:${allowed.port}/`);
    expect(credentials).toMatchObject({
      kind: "failed",
      reason: "invalid_url",
      words: expect.stringContaining("user:pass@"),
    });
    expect(trap.connections()).toBe(0);
    expect(allowed.connections()).toBe(0);
  });

  it("refuses the IP literals 127.0.0.2 and [::1] when only 127.0.0.1 is allowed", async () => {
    const trap = await serve("127.0.0.2");
    expect(await post(`https://127.0.0.2:${trap.port}/`)).toMatchObject({
      kind: "failed",
      reason: "refused_address",
      words: "the address 127.0.0.2 is not allowed (loopback)",
    });
    expect(await post(`https://[::1]:${trap.port}/`)).toMatchObject({
      reason: "refused_address",
      words: "the address ::1 is not allowed (loopback)",
    });
    expect(trap.connections()).toBe(0);
  });

  it("refuses at connect time a name that resolves to a refused address: nothing reaches the server there", async () => {
    const trap = await serve("127.0.0.2");
    const lookup = resolver({ "rebind.invalid": "127.0.0.2", "rebind6.invalid": "::1" });
    expect(await post(`https://rebind.invalid:${trap.port}/hook`, { lookup })).toMatchObject({
      kind: "failed",
      reason: "refused_address",
      words: "the address 127.0.0.2 is not allowed (loopback)",
    });
    expect(await post(`https://rebind6.invalid:${trap.port}/hook`, { lookup })).toMatchObject({
      reason: "refused_address",
      words: "the address ::1 is not allowed (loopback)",
    });
    expect(trap.connections()).toBe(0);
  });

  it("allows a host as named: not localhost, nor another name for 127.0.0.1, when only 127.0.0.1 is allowed", async () => {
    const server = await serve("127.0.0.1");
    expect(await post(`https://localhost:${server.port}/`)).toMatchObject({
      kind: "failed",
      reason: "refused_address",
    });
    const lookup = resolver({ "sneaky.invalid": "127.0.0.1" });
    expect(await post(`https://sneaky.invalid:${server.port}/`, { lookup })).toMatchObject({
      reason: "refused_address",
      words: "the address 127.0.0.1 is not allowed (loopback)",
    });
    expect(server.connections()).toBe(0);
  });

  it("lets an allowed name use http and resolve to anything", async () => {
    const server = await serve("127.0.0.1");
    const lookup = resolver({ "hooks.invalid": "127.0.0.1" });
    const result = await post(`http://hooks.invalid:${server.port}/in`, {
      lookup,
      policy: { allowedHosts: ["hooks.invalid"] },
    });
    expect(result).toMatchObject({ kind: "answered", status: 200, body: "ok" });
  });
});

describe("postGuarded: answers", () => {
  it("posts the body and headers to an allowed 127.0.0.1 over http, and returns a 2xx answer", async () => {
    const server = await serve("127.0.0.1", (_request, response) => response.writeHead(201).end("created"));
    const result = await post(`http://127.0.0.1:${server.port}/in?x=1#dropped`, {
      body: '{"a":1}',
      headers: { "x-test": "yes" },
    });
    expect(result).toMatchObject({ kind: "answered", status: 201, body: "created", truncated: false });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(server.requests).toEqual([{ url: "/in?x=1", body: '{"a":1}', header: "yes" }]);
  });

  it("returns a 500 as an answer", async () => {
    const server = await serve("127.0.0.1", (_request, response) => response.writeHead(500).end("nope"));
    expect(await post(`http://127.0.0.1:${server.port}/`)).toMatchObject({
      kind: "answered",
      status: 500,
      body: "nope",
    });
  });

  it("does not follow a redirect: the server it points to gets nothing", async () => {
    const elsewhere = await serve("127.0.0.1");
    const server = await serve("127.0.0.1", (_request, response) =>
      response.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/` }).end(),
    );
    expect(await post(`http://127.0.0.1:${server.port}/`)).toMatchObject({ kind: "answered", status: 302 });
    expect(elsewhere.connections()).toBe(0);
  });

  it("reads at most maxResponseBytes of a 50 MB answer and returns at once", async () => {
    let sent = 0;
    const total = 50 * 1024 * 1024;
    const server = await serve("127.0.0.1", (_request, response) => {
      const chunk = Buffer.alloc(64 * 1024, "a");
      const pump = () => {
        while (sent < total) {
          sent += chunk.byteLength;
          if (!response.write(chunk)) return void response.once("drain", pump);
        }
        response.end();
      };
      pump();
    });
    const result = await post(`http://127.0.0.1:${server.port}/`, { maxResponseBytes: 4096 });
    expect(result).toMatchObject({ kind: "answered", status: 200, truncated: true });
    expect(result.kind === "answered" && result.body).toBe("a".repeat(4096));
    expect(result.latencyMs).toBeLessThan(2_000);
    expect(sent).toBeLessThan(total);
  });

  it("counts bytes, not characters, and never cuts a character in two", async () => {
    const exact = await serve("127.0.0.1", (_request, response) => response.end("b".repeat(4096)));
    expect(await post(`http://127.0.0.1:${exact.port}/`)).toMatchObject({ body: "b".repeat(4096), truncated: false });
    const accents = await serve("127.0.0.1", (_request, response) => response.end("é".repeat(5000)));
    expect(await post(`http://127.0.0.1:${accents.port}/`, { maxResponseBytes: 4095 })).toMatchObject({
      body: "é".repeat(2047),
      truncated: true,
    });
  });
});

describe("postGuarded: connections", () => {
  it("reuses a connection for the next post to the same host, but not one whose answer was cut short", async () => {
    const server = await serve("127.0.0.1", (request, response) =>
      response.end(request.url === "/big" ? "x".repeat(10_000) : "ok"),
    );
    const url = `http://127.0.0.1:${server.port}`;
    expect(await post(`${url}/a`)).toMatchObject({ kind: "answered", body: "ok" });
    expect(await post(`${url}/b`)).toMatchObject({ kind: "answered", body: "ok" });
    expect(server.connections()).toBe(1);
    expect(await post(`${url}/big`, { maxResponseBytes: 100 })).toMatchObject({ kind: "answered", truncated: true });
    expect(await post(`${url}/c`)).toMatchObject({ kind: "answered", body: "ok" });
    expect(server.connections()).toBe(2);
  });

  it("sends again on a new connection when a pooled one is closed as it is reused", async () => {
    const served = new WeakMap<object, number>();
    const server = await serve("127.0.0.1", (request, response) => {
      const count = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, count);
      // The second request on a connection finds it closed, as when a server's idle timeout ends it.
      if (count === 2) request.socket.destroy();
      else response.end("ok");
    });
    const url = `http://127.0.0.1:${server.port}/`;
    expect(await post(url)).toMatchObject({ kind: "answered", body: "ok" });
    expect(await post(url)).toMatchObject({ kind: "answered", status: 200, body: "ok" });
    expect(server.connections()).toBe(2);
  });
});

describe("postGuarded: failures", () => {
  it("gives up on a server that never answers within the timeout", async () => {
    const server = await serve("127.0.0.1", () => {});
    const result = await post(`http://127.0.0.1:${server.port}/`, { timeoutMs: 300 });
    expect(result).toMatchObject({ kind: "failed", reason: "timeout", words: "no answer within 0.3 s" });
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
    expect(result.latencyMs).toBeLessThan(1_500);
  });

  it("ends at once when its signal aborts, before the request or while it waits for an answer", async () => {
    const url = `http://127.0.0.1:${(await serve("127.0.0.1", () => {})).port}/`;
    expect(await post(url, { signal: AbortSignal.abort() })).toMatchObject({ kind: "failed", reason: "aborted" });
    expect(await post(url, { signal: AbortSignal.timeout(200) })).toMatchObject({ reason: "aborted" });
  });

  it("counts the body in the timeout: headers then silence is a timeout too", async () => {
    const server = await serve("127.0.0.1", (_request, response) => response.writeHead(200).write("start"));
    expect(await post(`http://127.0.0.1:${server.port}/`, { timeoutMs: 300 })).toMatchObject({
      kind: "failed",
      reason: "timeout",
    });
  });

  it("says so when the connection is destroyed in the middle of the answer", async () => {
    const server = await serve("127.0.0.1", (_request, response) => {
      response.writeHead(200, { "content-length": "1000" });
      response.write("partial", () => response.socket?.destroy());
    });
    expect(await post(`http://127.0.0.1:${server.port}/`)).toMatchObject({
      kind: "failed",
      reason: "network",
      words: "the connection closed in the middle of the answer",
    });
  });

  it("says so when the connection closes before any answer, or is refused", async () => {
    const server = await serve("127.0.0.1", (request) => request.socket.destroy());
    expect(await post(`http://127.0.0.1:${server.port}/`)).toMatchObject({
      kind: "failed",
      reason: "network",
      words: "the connection closed without an answer",
    });
    const closed = await serve("127.0.0.1");
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await post(`http://127.0.0.1:${closed.port}/`)).toMatchObject({
      kind: "failed",
      reason: "network",
      words: "connection refused",
    });
  });
});
