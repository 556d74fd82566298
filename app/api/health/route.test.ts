import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { installDatabase, type DatabaseHandle } from "@/lib/db";
import { setUpTestDatabase, unreachableDatabase } from "@/lib/testing/database";

import { GET } from "./route";

let handle: DatabaseHandle;
let tearDown: () => Promise<void>;
beforeAll(async () => {
  ({ handle, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

describe("GET /api/health", () => {
  it("answers 200 while the database answers", async () => {
    const response = await GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "reachable" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 503 when the database is gone", async () => {
    const gone = await unreachableDatabase();
    installDatabase(gone);
    try {
      const response = await GET();
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: "unavailable", database: "unreachable" });
    } finally {
      installDatabase(handle);
      await gone.close();
    }
  });
});
