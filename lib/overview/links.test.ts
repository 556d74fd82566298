import { describe, expect, it } from "vitest";

import { parseEventFilters, parseRejectionFilters } from "@/lib/webhooks/filters";

import { connectionRejectionsHref, delayBucketHref, eventHref, expiredHourHref, rejectionsDayHref } from "./links";
import { OTHER_SERIES } from "./types";

const params = (href: string) => Object.fromEntries(new URL(href, "http://console").searchParams);
/** The parameters without those the page or another slice's filters read (tab, test). */
const withoutPageParams = (query: Record<string, string>) =>
  Object.fromEntries(Object.entries(query).filter(([name]) => name !== "tab" && name !== "test"));

describe("overview links into the log", () => {
  it("an hour's bar: that hour's real events of that method, ending a millisecond before the next hour (receivedTo is inclusive)", () => {
    const href = expiredHourHref("2025-06-08T10:00:00.000Z", "PUSH");
    expect(href.startsWith("/webhooks?")).toBe(true);
    expect(params(href)).toEqual({
      connectionId: "all",
      receivedFrom: "2025-06-08T10:00:00.000Z",
      receivedTo: "2025-06-08T10:59:59.999Z",
      verificationMethod: "PUSH",
      test: "exclude",
    });
    expect(parseEventFilters(withoutPageParams(params(href)))).toMatchObject({ ok: true });
  });

  it("a folded series has no single value to filter on: its link shows the whole hour or day", () => {
    expect(params(expiredHourHref("2025-06-08T10:00:00.000Z", OTHER_SERIES))).not.toHaveProperty("verificationMethod");
    expect(params(rejectionsDayHref("2025-06-08T00:00:00.000Z", OTHER_SERIES))).not.toHaveProperty("reason");
  });

  it("a day of rejections, a delay bucket, one event, a connection's refusals", () => {
    const day = params(rejectionsDayHref("2025-06-08T00:00:00.000Z", "bad_signature"));
    expect(day).toEqual({
      tab: "rejections",
      connectionId: "all",
      reason: "bad_signature",
      receivedFrom: "2025-06-08T00:00:00.000Z",
      receivedTo: "2025-06-08T23:59:59.999Z",
    });
    expect(parseRejectionFilters(withoutPageParams(day))).toMatchObject({ ok: true });
    expect(params(delayBucketHref("gt24h"))).toEqual({
      connectionId: "all",
      received: "7d",
      delay: "gt24h",
      test: "exclude",
    });
    expect(eventHref(42)).toBe("/webhooks?connectionId=all&event=42");
    expect(params(connectionRejectionsHref("c1", "bad_signature"))).toEqual({
      tab: "rejections",
      connectionId: "c1",
      reason: "bad_signature",
      received: "24h",
    });
  });
});
