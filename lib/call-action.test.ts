import { describe, expect, it } from "vitest";

import { actionCrashMessage, callAction } from "./call-action";

describe("callAction", () => {
  it("passes an action's own result through, failures included", async () => {
    expect(await callAction(async () => ({ ok: true as const, id: "c1" }))).toEqual({ ok: true, id: "c1" });
    expect(await callAction(async () => ({ ok: false as const, error: "Type Acme to confirm." }))).toEqual({
      ok: false,
      error: "Type Acme to confirm.",
    });
  });

  it("turns an action that throws into a failure that says nothing is confirmed", async () => {
    const result = await callAction(async (): Promise<{ ok: true }> => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    });
    expect(result).toEqual({ ok: false, error: actionCrashMessage });
    expect(JSON.stringify(result)).not.toContain("ECONNREFUSED");
  });
});
