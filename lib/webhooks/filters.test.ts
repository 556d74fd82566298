import { describe, expect, it } from "vitest";

import { alertFiltersSchema } from "@/lib/alerts/schemas";

import { filtersToQuery } from "./constants";
import { parseEventFilters, parseFiltersLeniently, parseRejectionFilters } from "./filters";
import { eventFiltersSchema, rejectionFiltersSchema } from "./schemas";

describe("parseFiltersLeniently", () => {
  it("leaves out each parameter that does not parse, names it by its label, and applies the rest", () => {
    const { filters, ignored } = parseFiltersLeniently(eventFiltersSchema, {
      expiresFrom: "garbage",
      limit: "5000",
      userId: "usr_alice",
    });
    expect(filters).toMatchObject({ userId: "usr_alice", limit: 50, type: "authenticator.expired" });
    expect(filters.expiresFrom).toBeUndefined();
    expect(ignored.map((f) => f.label).sort()).toEqual(["Expired from", "Rows per page"]);
    expect(ignored.find((f) => f.name === "expiresFrom")?.message).toBe(
      "must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z",
    );
  });

  it("ignores nothing in a valid link", () => {
    expect(parseFiltersLeniently(rejectionFiltersSchema, { reason: "bad_signature" }).ignored).toEqual([]);
    expect(parseFiltersLeniently(rejectionFiltersSchema, { reason: "nope" }).ignored.map((f) => f.label)).toEqual([
      "Reason",
    ]);
  });
});

describe("eventFiltersSchema", () => {
  it("upper-cases method and platform, which the spec writes in capitals", () => {
    expect(eventFiltersSchema.parse({ verificationMethod: " push ", devicePlatform: "ios" })).toMatchObject({
      verificationMethod: "PUSH",
      devicePlatform: "IOS",
    });
  });

  it("takes a connection id or all, and nothing else", () => {
    expect(parseEventFilters({ connectionId: "all" }).ok).toBe(true);
    expect(parseEventFilters({ connectionId: "3f6c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01" }).ok).toBe(true);
    expect(parseEventFilters({ connectionId: "Acme" }).ok).toBe(false);
  });
});

describe("link parameters said to a person", () => {
  it("names an unknown parameter, suggests the filter meant, and applies the rest", () => {
    const { filters, ignored } = parseFiltersLeniently(eventFiltersSchema, {
      method: "PUSH",
      platform: "IOS",
      colour: "red",
      userId: "usr_a",
    });
    expect(filters).toMatchObject({ userId: "usr_a" });
    expect(filters).not.toHaveProperty("method");
    expect(ignored).toEqual([
      {
        name: "method",
        label: "method",
        message: "not a filter of this log; did you mean Method (verificationMethod=PUSH)?",
      },
      {
        name: "platform",
        label: "platform",
        message: "not a filter of this log; did you mean Platform (devicePlatform=IOS)?",
      },
      { name: "colour", label: "colour", message: "not a filter of this log" },
    ]);
  });

  it("names the list it is no filter of (the Alerts page's)", () => {
    const { filters, ignored } = parseFiltersLeniently(
      alertFiltersSchema,
      { colour: "red", connection: "all", state: "open" },
      "the alerts",
    );
    expect(filters).toMatchObject({ state: "open" });
    expect(ignored).toEqual([
      { name: "colour", label: "colour", message: "not a filter of the alerts" },
      {
        name: "connection",
        label: "connection",
        message: "not a filter of the alerts; did you mean Connection (connectionId=all)?",
      },
    ]);
  });

  it("says what rows per page must be, instead of zod's NaN", () => {
    const { ignored } = parseFiltersLeniently(eventFiltersSchema, { limit: "abc" });
    expect(ignored).toEqual([
      { name: "limit", label: "Rows per page", message: "must be a whole number from 1 to 200" },
    ]);
    expect(parseEventFilters({ limit: "2.5" })).toEqual({
      ok: false,
      errorDescription: "Rows per page (limit): must be a whole number from 1 to 200",
    });
    expect(parseEventFilters({ limit: "0" })).toEqual({
      ok: false,
      errorDescription: "Rows per page (limit): must be a whole number from 1 to 200",
    });
  });

  it("refuses unknown parameters in the API, naming them, and keeps what the UI sends", () => {
    expect(parseEventFilters({ method: "PUSH" })).toEqual({
      ok: false,
      errorDescription: "method: not a filter of this log; did you mean Method (verificationMethod=PUSH)?",
    });
    expect(parseRejectionFilters({ verificationMethod: "PUSH" })).toMatchObject({
      ok: false,
      errorDescription: expect.stringContaining("verificationMethod: not a filter"),
    });
    const ui = parseEventFilters({
      connectionId: "all",
      type: "all",
      verificationMethod: "PUSH",
      devicePlatform: "IOS",
      userId: "u",
      userIdMatch: "prefix",
      received: "1h",
      cursor: "x",
      limit: "20",
    });
    expect(ui.ok).toBe(true);
    expect(parseRejectionFilters({ reason: "bad_signature", received: "7d", limit: "10" }).ok).toBe(true);
  });

  it("takes the relative received presets and names a bad one", () => {
    expect(parseEventFilters({ received: "24h" })).toMatchObject({ ok: true, filters: { received: "24h" } });
    expect(parseEventFilters({ received: "2h" })).toEqual({
      ok: false,
      errorDescription: "Received (received): must be one of 1h, 24h, 7d",
    });
  });

  it("says which connection values are allowed", () => {
    expect(parseEventFilters({ connectionId: "Acme" })).toEqual({
      ok: false,
      errorDescription: "Connection (connectionId): must be a connection's id, or all",
    });
  });
});

describe("test and delay filters", () => {
  it("takes test=exclude or only (absent is all), and names a bad value", () => {
    expect(parseEventFilters({ test: "only" })).toMatchObject({ ok: true, filters: { test: "only" } });
    expect(parseEventFilters({ test: "exclude" })).toMatchObject({ ok: true, filters: { test: "exclude" } });
    const absent = parseEventFilters({});
    expect(absent.ok && absent.filters.test).toBeUndefined();
    expect(parseEventFilters({ test: "yes" })).toEqual({
      ok: false,
      errorDescription: "Test events (test): must be one of exclude, only",
    });
    expect(parseEventFilters({ is_test: "only" })).toMatchObject({
      ok: false,
      errorDescription: expect.stringContaining("did you mean Test events (test=only)?"),
    });
  });

  it("takes the overview histogram's delay buckets and names a bad one", () => {
    for (const delay of ["lt1m", "1m-10m", "10m-1h", "1h-6h", "6h-24h", "gt24h"]) {
      expect(parseEventFilters({ connectionId: "all", received: "7d", delay })).toMatchObject({
        ok: true,
        filters: { delay },
      });
    }
    expect(parseEventFilters({ delay: "2h" })).toEqual({
      ok: false,
      errorDescription: "Delay (delay): must be one of lt1m, 1m-10m, 10m-1h, 1h-6h, 6h-24h, gt24h",
    });
    const { filters, ignored } = parseFiltersLeniently(eventFiltersSchema, { delay: "late", test: "only" });
    expect(filters.test).toBe("only");
    expect(filters.delay).toBeUndefined();
    expect(ignored.map((f) => f.label)).toEqual(["Delay"]);
  });

  it("keeps both in a shared link", () => {
    expect(
      filtersToQuery({
        connectionId: "all",
        test: "exclude",
        delay: "gt24h",
        type: "authenticator.expired",
        limit: 50,
      }),
    ).toBe("connectionId=all&test=exclude&delay=gt24h");
  });
});
