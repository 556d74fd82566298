import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { Role } from "@/lib/auth/roles";
import type { Database } from "@/lib/db";
import { alertNoticeTargets } from "@/lib/db/alerts-schema";
import { RefusedAddressError } from "@/lib/outbound/address-policy";
import { setUpTestDatabase } from "@/lib/testing/database";

import { listAlerts, listNoticeTargets } from "./alerts";
import { openRotatedKeyAlert, restoreEnv, stubNoticeEnv } from "./test-helpers";

// What support sees of the notices: a target's URL as its origin (a token in the path is a secret too),
// and a notice the address policy refused without the internal address its host resolved to. Nothing is
// sent: the refused attempt is written as the sender writes one.

const ENV_URL = "https://hooks.example.test/services/T000/B000/env_path_secret?token=env_query_secret";
const PAGE_URL = "https://hooks.example.test/page/page_path_secret?token=page_query_secret";
const REFUSED = `webhook: ${new RefusedAddressError("10.0.0.5", "private").message}`;

const session = vi.hoisted(() => ({ role: "support" as Role }));
vi.mock("@/lib/auth/guards", async (original) => ({
  ...(await original<typeof import("@/lib/auth/guards")>()),
  authenticateApi: async () => ({ id: "u1", email: "u@example.com", name: "U", role: session.role }),
}));
const { handleListAlerts } = await import("./api");

let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  stubNoticeEnv({
    CONSOLE_ALERT_WEBHOOK_URLS: ENV_URL,
    CONSOLE_ALERT_WEBHOOK_SECRET: `whsec_${Buffer.alloc(24, 3).toString("base64")}`,
  });
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(async () => {
  restoreEnv();
  await tearDown();
});

describe("support's view of the notices", () => {
  it("lists every target's URL as its origin for support; origin and path for admins", async () => {
    await db
      .insert(alertNoticeTargets)
      .values({ id: crypto.randomUUID(), name: "Ops chat", url: PAGE_URL, secretCiphertext: "v2.unused" });
    const forAdmin = await listNoticeTargets("admin");
    expect(forAdmin.map((t) => t.where)).toEqual([
      "https://hooks.example.test",
      "https://hooks.example.test/page/page_path_secret",
    ]);
    const forSupport = await listNoticeTargets("support");
    expect(forSupport.map((t) => t.where)).toEqual(["https://hooks.example.test", "https://hooks.example.test"]);
    expect(JSON.stringify(forSupport)).not.toMatch(/secret|\/page|\/services/);
  });

  it("words a refused notice's address by its range for support, on the page and in GET /api/alerts, with the address for admins", async () => {
    const { alert } = await openRotatedKeyAlert("Refused notices");
    await db.execute(
      sql`update alert_notices set attempts = 1, last_outcome = ${REFUSED} where alert_id = ${alert.id} and channel = 'webhook'`,
    );
    const filters = { connectionId: alert.connectionId, kind: "all", state: "all", muted: "all", limit: 10 } as const;

    expect((await listAlerts(filters, "admin")).alerts[0]!.notices.problem).toBe(
      "webhook: the address 10.0.0.5 is not allowed (private)",
    );
    const forSupport = await listAlerts(filters, "support");
    expect(forSupport.alerts[0]!.notices.problem).toBe(
      "webhook: the target's host resolves to an address that is not allowed (private)",
    );
    expect(JSON.stringify(forSupport)).not.toContain("10.0.0.5");

    const api = async (role: Role) => {
      session.role = role;
      const response = await handleListAlerts(
        new Request(`http://127.0.0.1:3000/api/alerts?connectionId=${alert.connectionId}`),
      );
      return (await response.json()) as { alerts: Array<{ notices: { problem: string | null } }> };
    };
    expect((await api("admin")).alerts[0]!.notices.problem).toContain("10.0.0.5");
    const answered = await api("support");
    expect(answered.alerts[0]!.notices.problem).toBe(
      "webhook: the target's host resolves to an address that is not allowed (private)",
    );
    expect(JSON.stringify(answered)).not.toContain("10.0.0.5");
  });
});
