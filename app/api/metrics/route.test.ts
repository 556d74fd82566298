import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { installDatabase, type DatabaseHandle } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { setUpTestDatabase, unreachableDatabase } from "@/lib/testing/database";

import { GET } from "./route";

const TOKEN = "metrics-token-for-the-route-test-0123456789";
const scrape = (authorization?: string) =>
  GET(new Request("http://127.0.0.1:3000/api/metrics", { headers: authorization ? { authorization } : {} }));

let handle: DatabaseHandle;
let tearDown: () => Promise<void>;
beforeAll(async () => {
  ({ handle, tearDown } = await setUpTestDatabase());
  vi.stubEnv("CONSOLE_METRICS_TOKEN", TOKEN);
  reloadEnv();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  reloadEnv();
  await tearDown();
});

describe("GET /api/metrics", () => {
  it.each([
    ["no token", undefined],
    ["a wrong token", `Bearer ${TOKEN.slice(0, -1)}x`],
    ["the token as a Basic credential", `Basic ${TOKEN}`],
  ])("answers 401 with %s, in the API's error shape", async (_, authorization) => {
    const response = await scrape(authorization);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "unauthorized" });
  });

  it("answers 401 to every token while CONSOLE_METRICS_TOKEN is unset: never anonymous", async () => {
    vi.stubEnv("CONSOLE_METRICS_TOKEN", undefined);
    reloadEnv();
    try {
      expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(401);
      expect((await scrape("Bearer ")).status).toBe(401);
    } finally {
      vi.stubEnv("CONSOLE_METRICS_TOKEN", TOKEN);
      reloadEnv();
    }
  });

  it("answers Prometheus text with CONSOLE_METRICS_TOKEN, never cached, that a real parser reads", async () => {
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const families = parsePrometheusTextFormat(await response.text());
    const names = new Set(families.map((family) => family.name));
    for (const name of [
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_seconds",
      "tenant_console_webhooks_received_total",
      "tenant_console_database_up",
    ]) {
      expect(names).toContain(name);
    }
    expect(families.find((family) => family.name === "tenant_console_database_up")?.metrics).toEqual([{ value: "1" }]);
  });

  it("names every metric by Prometheus conventions: counters end in _total, duration histograms in _seconds", async () => {
    const families = parsePrometheusTextFormat(await (await scrape(`Bearer ${TOKEN}`)).text());
    const ours = families.filter((family) => family.name.startsWith("tenant_console_"));
    expect(ours.length).toBeGreaterThanOrEqual(14);
    for (const family of families) {
      expect(family.name).toMatch(/^[a-z_][a-z0-9_]*$/);
      expect(family.help, family.name).not.toBe("");
      if (family.type === "COUNTER") expect(family.name).toMatch(/_total$/);
    }
    // prom-client's own nodejs_active_resources_total is a gauge: the rule's other half holds for ours.
    for (const family of ours) if (family.type !== "COUNTER") expect(family.name).not.toMatch(/_total$/);
    // A histogram counts seconds, or says its unit (rows) in its name; a gauge of time says seconds.
    for (const family of ours.filter((f) => f.type === "HISTOGRAM")) expect(family.name).toMatch(/_(seconds|rows)$/);
    for (const family of ours) expect(family.name).not.toMatch(/_(ms|milliseconds|minutes|hours)(_|$)/);
  });

  it("still answers the process's metrics when the database does not, and says so in tenant_console_database_up", async () => {
    const gone = await unreachableDatabase();
    installDatabase(gone);
    try {
      const response = await scrape(`Bearer ${TOKEN}`);
      expect(response.status).toBe(200);
      const families = parsePrometheusTextFormat(await response.text());
      expect(families.find((family) => family.name === "tenant_console_database_up")?.metrics).toEqual([
        { value: "0" },
      ]);
      expect(families.find((family) => family.name === "tenant_console_outbox_pending_deliveries")?.metrics).toEqual(
        [],
      );
      expect(families.some((family) => family.name === "process_cpu_seconds_total")).toBe(true);
    } finally {
      installDatabase(handle);
      await gone.close();
    }
  });
});
