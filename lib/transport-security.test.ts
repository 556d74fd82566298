import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";

import { strictTransportSecurity } from "./transport-security";

// The proxy reads NEXTAUTH_URL through env(), once per process: this file's console is served over https.
process.env.NEXTAUTH_URL = "https://console.example.com";
const { proxy } = await import("@/proxy");

const HSTS = "max-age=63072000; includeSubDomains";

describe("strictTransportSecurity", () => {
  it("is two years, subdomains included, when the console's URL is https", () => {
    expect(strictTransportSecurity("https://console.example.com")).toBe(HSTS);
    expect(strictTransportSecurity("https://console.example.com:8443/")).toBe(HSTS);
  });

  it("is not sent for an http console (the demo and the tests, on 127.0.0.1)", () => {
    expect(strictTransportSecurity("http://127.0.0.1:3000")).toBeUndefined();
    expect(strictTransportSecurity("http://console.internal")).toBeUndefined();
  });
});

describe("the proxy of an https console", () => {
  const get = (path: string) => proxy(new NextRequest(`https://console.example.com${path}`));

  it("sends Strict-Transport-Security on a page, a redirect to sign-in and a trailing-slash redirect", async () => {
    const page = await get("/sign-in");
    expect(page.headers.get("x-middleware-next")).toBe("1");
    expect(page.headers.get("strict-transport-security")).toBe(HSTS);

    const signIn = await get("/webhooks");
    expect(signIn.headers.get("location")).toBe("https://console.example.com/sign-in?callbackUrl=%2Fwebhooks");
    expect(signIn.headers.get("strict-transport-security")).toBe(HSTS);

    const slash = await get("/overview/");
    expect(slash.status).toBe(308);
    expect(slash.headers.get("strict-transport-security")).toBe(HSTS);
  });
});
