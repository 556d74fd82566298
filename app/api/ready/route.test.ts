import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { installDatabase, type DatabaseHandle } from "@/lib/db";
import { beginDraining, markStarted } from "@/lib/lifecycle";
import { forgetProcessSingleton } from "@/lib/process-singleton";
import { setUpTestDatabase, unreachableDatabase } from "@/lib/testing/database";

import { GET } from "./route";

let handle: DatabaseHandle;
let tearDown: () => Promise<void>;
beforeAll(async () => {
  ({ handle, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());
// The lifecycle is the process's: a drain begun here must not reach the next file on this thread.
afterEach(() => forgetProcessSingleton("lifecycle"));

const answer = async () => {
  const response = await GET();
  return { status: response.status, body: await response.json(), cache: response.headers.get("cache-control") };
};

describe("GET /api/ready", () => {
  it("answers 503 starting until start-up is done, then 200 while the database answers", async () => {
    expect(await answer()).toEqual({ status: 503, body: { status: "starting" }, cache: "no-store" });
    markStarted();
    expect(await answer()).toEqual({
      status: 200,
      body: { status: "ready", database: "reachable" },
      cache: "no-store",
    });
  });

  it("answers 503 draining from the moment a stop begins, with the database still there", async () => {
    markStarted();
    beginDraining();
    expect(await answer()).toMatchObject({ status: 503, body: { status: "draining" } });
  });

  it("answers 503 unavailable when the database is gone", async () => {
    markStarted();
    const gone = await unreachableDatabase();
    installDatabase(gone);
    try {
      expect(await answer()).toMatchObject({
        status: 503,
        body: { status: "unavailable", database: "unreachable" },
      });
    } finally {
      installDatabase(handle);
      await gone.close();
    }
  });
});
