import http from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { discoveryAnswers } from "./sso";
import { DiscoveryError, issuerIsConfigured } from "./sso-issuer";

/** A provider's discovery documents on 127.0.0.1: `/issuer/<name>` answers with that issuer (URL-encoded). */
let server: http.Server;
let base: string;
const endpoints = { authorization_endpoint: "x", token_endpoint: "x", jwks_uri: "x" };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const json = (body: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.url === "/ok") json({ issuer: "x", ...endpoints });
    else if (req.url?.startsWith("/issuer/"))
      json({ issuer: decodeURIComponent(req.url.slice("/issuer/".length)), ...endpoints });
    else if (req.url === "/html") res.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
    else if (req.url === "/down") res.writeHead(503).end();
    // "/hang": never answers.
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("discoveryAnswers", () => {
  it("is true only for a discovery document", async () => {
    expect(await discoveryAnswers(`${base}/ok`, 2000)).toBe(true);
    expect(await discoveryAnswers(`${base}/html`, 2000)).toBe(false);
    expect(await discoveryAnswers(`${base}/down`, 2000)).toBe(false);
  });

  it("gives up on a provider that does not answer within the timeout", async () => {
    const started = Date.now();
    expect(await discoveryAnswers(`${base}/hang`, 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("is false when nothing listens", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await discoveryAnswers(`http://127.0.0.1:${port}/`, 2000)).toBe(false);
  });
});

describe("issuerIsConfigured", () => {
  const documentNaming = (issuer: string) => `${base}/issuer/${encodeURIComponent(issuer)}`;

  it("accepts the configured issuer exactly, without asking the provider", async () => {
    const issuer = "https://idp.example.com/realms/console";
    expect(await issuerIsConfigured(issuer, { issuer, wellKnownUrl: `${base}/down` }, 2000)).toBe(true);
  });

  it("refuses any other issuer: another tenant or path, another case, another host", async () => {
    const issuer = "https://idp.example.com/realms/console";
    const config = { issuer, wellKnownUrl: documentNaming(issuer) };
    for (const other of [
      "https://idp.example.com/realms/other",
      "https://IDP.example.com/realms/console",
      "https://idp.example.com/realms/console//",
      "https://idp.example.com/realms/console/x",
      "https://idp.example.com",
      "http://idp.example.com/realms/console",
    ]) {
      expect(await issuerIsConfigured(other, config, 2000)).toBe(false);
    }
  });

  it("refuses every tenant's token when the setting is Entra ID's multi-tenant /common issuer", async () => {
    // openid-client fills the document's {tenantid} in from the token's own tid claim, so it would accept each of
    // these.
    const common = "https://login.microsoftonline.com/common/v2.0";
    const config = {
      issuer: common,
      wellKnownUrl: documentNaming("https://login.microsoftonline.com/{tenantid}/v2.0"),
    };
    expect(
      await issuerIsConfigured(
        "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0",
        config,
        2000,
      ),
    ).toBe(false);
    expect(await issuerIsConfigured("https://login.microsoftonline.com/{tenantid}/v2.0", config, 2000)).toBe(false);
  });

  it("allows a trailing slash only when the discovery document names the issuer with it", async () => {
    const issuer = "https://tenant.auth0.example";
    expect(await issuerIsConfigured(`${issuer}/`, { issuer, wellKnownUrl: documentNaming(`${issuer}/`) }, 2000)).toBe(
      true,
    );
    expect(await issuerIsConfigured(`${issuer}/`, { issuer, wellKnownUrl: documentNaming(issuer) }, 2000)).toBe(false);
  });

  it("fails, rather than refuses, when the document that would decide does not answer", async () => {
    const issuer = "https://slash.example";
    await expect(
      issuerIsConfigured(`${issuer}/`, { issuer, wellKnownUrl: `${base}/down` }, 2000),
    ).rejects.toBeInstanceOf(DiscoveryError);
  });
});
