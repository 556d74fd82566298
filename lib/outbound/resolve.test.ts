import crypto from "node:crypto";
import dgram from "node:dgram";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { dnsResolver } from "./resolve";

// The outbound resolver on real DNS servers of the test's own, on 127.0.0.1: one that never answers,
// and one that says every name is unknown. Nothing here leaves the machine.

const servers: dgram.Socket[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A DNS server on 127.0.0.1: `answer` makes the reply to a query (null: no reply). */
async function startDnsServer(answer: (query: Buffer) => Buffer | null): Promise<string> {
  const server = dgram.createSocket("udp4");
  servers.push(server);
  server.on("message", (query, from) => {
    const reply = answer(query);
    if (reply) server.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => server.bind(0, "127.0.0.1", resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The query sent back as its answer with NXDOMAIN: flags QR, RD, RA and response code 3. */
const nxdomain = (query: Buffer) => {
  const reply = Buffer.from(query);
  reply.writeUInt16BE(0x8183, 2);
  return reply;
};

const pbkdf2 = () =>
  new Promise<void>((resolve, reject) =>
    crypto.pbkdf2("password", "salt", 2_000, 32, "sha256", (error) => (error ? reject(error) : resolve())),
  );

describe("the outbound resolver", () => {
  it("gives up on DNS servers that never answer within its deadline, without holding libuv's threads", async () => {
    // Long enough that the pool's work ends first on a machine of any load: what is asserted is the order.
    const timeoutMs = 5_000;
    const resolveAll = dnsResolver({ servers: [await startDnsServer(() => null)], timeoutMs });
    const started = Date.now();
    let firstSettledAt = Infinity;
    const lookups = Array.from({ length: 8 }, (_, i) =>
      resolveAll(`hangs-${i}.example`).then(
        () => "answered",
        (error: NodeJS.ErrnoException) => ((firstSettledAt = Math.min(firstSettledAt, Date.now())), error.code),
      ),
    );

    // Eight look-ups hang; work on the thread pool (argon2's, here pbkdf2) ends before any of them does.
    // Had they taken the pool's four threads, as getaddrinfo does, it would have waited for them.
    await Promise.all(Array.from({ length: 4 }, pbkdf2));
    const poolDoneAt = Date.now();

    expect(await Promise.all(lookups)).toEqual(Array(8).fill("ETIMEOUT"));
    expect(poolDoneAt).toBeLessThan(firstSettledAt);
    expect(Date.now() - started).toBeLessThan(timeoutMs * 3);
  });

  it("asks the system's own names (as /etc/hosts has localhost) of a name the DNS servers do not know", async () => {
    const resolveAll = dnsResolver({ servers: [await startDnsServer(nxdomain)] });
    const addresses = await resolveAll("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    for (const { address } of addresses) expect(["127.0.0.1", "::1"]).toContain(address);
  });

  it("says a name unknown everywhere is unknown", async () => {
    const resolveAll = dnsResolver({ servers: [await startDnsServer(nxdomain)] });
    await expect(resolveAll(`no-such-name-${crypto.randomUUID()}.invalid`)).rejects.toMatchObject({
      code: "ENOTFOUND",
    });
  });
});
