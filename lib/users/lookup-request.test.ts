import { describe, expect, it } from "vitest";

import { isRequestFromConsole } from "@/lib/auth/fetch-metadata";

import { decideLookup, withoutLookupMarkers } from "./lookup-request";
import { lookupRequestSchema } from "./schemas";

const ACME = "11111111-1111-4111-8111-111111111111";
const GLOBEX = "22222222-2222-4222-8222-222222222222";

function decide(
  query: Record<string, string | string[]>,
  headers: Record<string, string> = { "sec-fetch-site": "same-origin" },
  selected = ACME,
) {
  return decideLookup(lookupRequestSchema.parse(query), {
    selectedConnectionId: selected,
    requestHeaders: new Headers(headers),
    isRequestFromConsole,
  });
}

describe("decideLookup: a lookup runs only when asked, here, in the selected connection", () => {
  it("runs what the form asked in the selected connection", () => {
    expect(decide({ userId: "usr_bob", connection: ACME })).toEqual({ kind: "run", userId: "usr_bob" });
  });

  it("runs lookup=1 from inside the console (typed address or same-origin link) in the selected connection", () => {
    expect(decide({ userId: "usr_bob", lookup: "1" })).toEqual({ kind: "run", userId: "usr_bob" });
    expect(decide({ userId: "usr_bob", lookup: "1" }, { "sec-fetch-site": "none" })).toEqual({
      kind: "run",
      userId: "usr_bob",
    });
  });

  it("does not run after a switch: the form's connection is no longer the selected one", () => {
    expect(decide({ userId: "usr_bob", connection: ACME }, undefined, GLOBEX)).toEqual({
      kind: "ask",
      userId: "usr_bob",
      reason: "other_connection",
    });
  });

  it("does not run in a server action's re-render (the switch's revalidation), whatever the query", () => {
    const action = { "sec-fetch-site": "same-origin", "next-action": "7f00abc" };
    expect(decide({ userId: "usr_bob", connection: ACME }, action)).toMatchObject({ kind: "ask" });
    expect(decide({ userId: "usr_bob", lookup: "1" }, action, GLOBEX)).toMatchObject({ kind: "ask" });
  });

  it("only fills in the form for an id with no marker, or a link from another site", () => {
    expect(decide({ userId: "usr_bob" })).toEqual({ kind: "ask", userId: "usr_bob", reason: "unasked" });
    expect(decide({ userId: "usr_bob", lookup: "1" }, { "sec-fetch-site": "cross-site" })).toEqual({
      kind: "ask",
      userId: "usr_bob",
      reason: "link",
    });
    expect(decide({ userId: "usr_bob", connection: ACME }, {})).toEqual({
      kind: "ask",
      userId: "usr_bob",
      reason: "link",
    });
    expect(decide({ userId: "usr_bob", lookup: "yes" })).toMatchObject({ kind: "ask", reason: "unasked" });
  });

  it("names a bad id and looks nothing up; no id, nothing to do", () => {
    expect(decide({ userId: "x".repeat(300), connection: ACME })).toEqual({
      kind: "invalid",
      message: "User ids have at most 255 characters.",
    });
    expect(decide({ userId: "  ", lookup: "1" })).toEqual({ kind: "invalid", message: "Enter a user id." });
    expect(decide({})).toEqual({ kind: "none" });
    expect(decide({ userId: ["usr_a", "usr_b"], lookup: "1" })).toEqual({ kind: "run", userId: "usr_a" });
  });
});

describe("withoutLookupMarkers", () => {
  it("drops the markers and keeps the rest, or says there were none", () => {
    expect(withoutLookupMarkers(`/users?userId=usr_bob&connection=${ACME}`)).toBe("/users?userId=usr_bob");
    expect(withoutLookupMarkers("/users?userId=usr_bob&lookup=1")).toBe("/users?userId=usr_bob");
    expect(withoutLookupMarkers("/users?lookup=1")).toBe("/users");
    expect(withoutLookupMarkers("/users?userId=usr_bob")).toBeNull();
    expect(withoutLookupMarkers("/webhooks?connectionId=x&userId=u")).toBeNull();
  });
});
