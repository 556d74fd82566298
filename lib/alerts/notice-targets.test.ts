import http from "node:http";
import type { AddressInfo } from "node:net";

import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { alertNotices, alertNoticeTargets } from "@/lib/db/alerts-schema";
import { auditLog } from "@/lib/db/schema";
import { createDestination } from "@/lib/destinations/destinations";
import { LOCAL_POLICY, startReceiver } from "@/lib/destinations/test-helpers";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";

import { MAX_NOTICE_TARGETS } from "./constants";
import { sendDueNotices } from "./notice-sender";
import { addNoticeTarget, listNoticeTargets, removeNoticeTarget, sendTestNotice } from "./notice-targets";
import type { NoticeBody } from "./notices";
import { noticesOf, openRotatedKeyAlert, restoreEnv, stubNoticeEnv } from "./test-helpers";

// The notice targets an admin adds on the Alerts page, against a real local receiver on 127.0.0.1 that
// verifies each notice with the target's own Standard Webhooks secret, as an operator's handler would.

const ENV_SECRET = `whsec_${Buffer.alloc(24, 3).toString("base64")}`;
const actor = { id: null, email: "admin@example.com" } as const;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** Listens on 127.0.0.2, an address the policy refuses: nothing may ever connect to it. */
let refused: http.Server;
let refusedConnections = 0;
let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  receiver = await startReceiver();
  refused = http.createServer((_request, response) => response.end("ok"));
  refused.on("connection", () => refusedConnections++);
  await new Promise<void>((resolve) => refused.listen(0, "127.0.0.2", resolve));
  stubNoticeEnv({
    CONSOLE_ALERT_WEBHOOK_URLS: `${receiver.url.replace("/hooks", "/env")}?token=kept-out-of-lists`,
    CONSOLE_ALERT_WEBHOOK_SECRET: ENV_SECRET,
  });
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(async () => {
  restoreEnv();
  await Promise.all([receiver.close(), new Promise<void>((resolve) => refused.close(() => resolve()))]);
  await tearDown();
});
afterEach(async () => {
  await db.execute(sql`delete from connections`);
  await db.delete(alertNoticeTargets);
  await db.delete(auditLog);
  receiver.received.length = 0;
  receiver.answerWith(() => 200);
});

const add = (name: string, url: string) => addNoticeTarget(actor, { name, url }, LOCAL_POLICY);
const targetRows = () => db.select().from(alertNoticeTargets);
const auditActions = async () => (await db.select().from(auditLog)).map((r) => r.action);

describe("adding and removing notice targets", () => {
  it("adds one with a Standard Webhooks secret of its own, answered once and stored sealed; lists it beside the environment's", async () => {
    const added = await add("Ops chat", `${receiver.url}?channel=ops`);
    expect(added).toMatchObject({
      ok: true,
      name: "Ops chat",
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const secret = added.ok ? added.secret : "";
    const [row] = await targetRows();
    expect(row).toMatchObject({
      name: "Ops chat",
      url: `${receiver.url}?channel=ops`,
      secretCiphertext: expect.stringMatching(/^v2\./),
    });
    expect(row!.secretCiphertext).not.toContain(secret.slice(6));

    const targets = await listNoticeTargets("admin");
    expect(targets).toEqual([
      {
        id: null,
        source: "environment",
        channel: "webhook",
        name: "Webhooks of the console's configuration",
        where: new URL(receiver.url).origin,
        createdAt: null,
        createdBy: null,
      },
      {
        id: row!.id,
        source: "page",
        channel: "webhook",
        name: "Ops chat",
        where: receiver.url,
        createdAt: row!.createdAt.toISOString(),
        createdBy: null,
      },
    ]);
    expect(JSON.stringify(targets)).not.toMatch(/whsec_|token=|channel=|\/env/);
    const [audit] = await db.select().from(auditLog);
    expect(audit).toMatchObject({
      action: "alert.target_added",
      actorEmail: actor.email,
      target: "Ops chat",
      details: { url: "http://127.0.0.1:" + new URL(receiver.url).port },
    });
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it("names the field at fault: an empty name or URL, a control character, a name already taken", async () => {
    expect(await add("", receiver.url)).toEqual({ ok: false, error: "Give the target a name.", field: "name" });
    expect(await add("Ops", " ")).toEqual({ ok: false, error: "Enter the URL to post notices to.", field: "url" });
    expect(await add("Ops\nchat", receiver.url)).toMatchObject({ ok: false, field: "name" });
    expect(await add("Ops", receiver.url)).toMatchObject({ ok: true });
    expect(await add("Ops", receiver.url)).toEqual({
      ok: false,
      error: "A notice target named Ops already exists.",
      field: "name",
    });
    expect(await targetRows()).toHaveLength(1);
  });

  it("refuses an address the policy refuses, in a destination's words, without connecting to it", async () => {
    const { port } = refused.address() as AddressInfo;
    const connection = await insertTestConnection("Acme");
    const cases = [
      [`https://127.0.0.2:${port}/alerts`, "The address 127.0.0.2 is not allowed (loopback)."],
      [`http://127.0.0.2:${port}/alerts`, "A destination URL starts with https://."],
      [
        `https://localhost:${port}/alerts`,
        expect.stringMatching(
          /^Localhost resolves to an address that is not allowed: the address (127\.0\.0\.1|::1) is not allowed \(loopback\)\.$/,
        ),
      ],
      [
        `https://user:pass@127.0.0.1:${port}/`,
        "A destination URL carries no user name or password (user:pass@): send them in a header.",
      ],
    ] as const;
    for (const [url, words] of cases) {
      expect(await add("Refused", url), url).toEqual({ ok: false, error: words, field: "url" });
      const destination = await createDestination(
        actor,
        {
          connectionId: connection.id,
          name: "Refused",
          url,
          signing: "standard_webhooks",
          eventTypes: [],
          verificationMethods: [],
        },
        LOCAL_POLICY,
      );
      expect(destination, url).toEqual({ ok: false, error: words, field: "url" });
    }
    expect(refusedConnections).toBe(0);
    expect(await targetRows()).toEqual([]);
    expect(await auditActions()).toEqual([]);
  });

  it(`holds at most ${MAX_NOTICE_TARGETS}`, async () => {
    for (let i = 0; i < MAX_NOTICE_TARGETS; i++)
      expect(await add(`Target ${i}`, receiver.url)).toMatchObject({ ok: true });
    expect(await add("One too many", receiver.url)).toEqual({
      ok: false,
      error: `The Alerts page holds at most ${MAX_NOTICE_TARGETS} notice targets: remove one first.`,
    });
    expect(await targetRows()).toHaveLength(MAX_NOTICE_TARGETS);
  });

  it("removes one with the notices queued for it, audited; a second remove, or a bad id, changes nothing", async () => {
    const added = await add("Ops chat", receiver.url);
    const targetId = added.ok ? added.id : "";
    const { alert } = await openRotatedKeyAlert("Acme");
    expect((await noticesOf(alert.id)).map((n) => n.targetId)).toEqual([null, targetId]);

    expect(await removeNoticeTarget(actor, { targetId })).toEqual({ ok: true });
    expect(await targetRows()).toEqual([]);
    expect((await noticesOf(alert.id)).map((n) => n.targetId)).toEqual([null]);
    expect(await removeNoticeTarget(actor, { targetId })).toEqual({
      ok: false,
      error: "This notice target no longer exists.",
    });
    expect(await removeNoticeTarget(actor, { targetId: "not-an-id" })).toEqual({
      ok: false,
      error: "Check the request.",
    });
    expect(await auditActions()).toEqual(["alert.target_added", "alert.target_removed"]);
  });
});

describe("notices to a page target", () => {
  it("are signed with the target's own secret; the environment's still with CONSOLE_ALERT_WEBHOOK_SECRET", async () => {
    const added = await add("Ops chat", receiver.url);
    const secret = added.ok ? added.secret : "";
    const { alert } = await openRotatedKeyAlert("Acme");
    await sendDueNotices({ policy: LOCAL_POLICY, timeoutMs: 1_000 });

    const notices = await noticesOf(alert.id);
    expect(notices.map((n) => [n.state, n.targetId])).toEqual([
      ["sent", null],
      ["sent", added.ok ? added.id : ""],
    ]);
    expect(receiver.received).toHaveLength(2);
    const [toEnv, toPage] = notices.map((n) =>
      receiver.received.find((r) => r.headers["webhook-id"] === `alert-notice-${n.id}`),
    );
    const headers = (r: typeof toEnv) => r!.headers as Record<string, string>;
    expect(new Webhook(ENV_SECRET).verify(toEnv!.body, headers(toEnv))).toMatchObject({ type: "alert.opened" });
    const body = new Webhook(secret).verify(toPage!.body, headers(toPage)) as NoticeBody;
    expect(body).toMatchObject({ type: "alert.opened", data: { alert: { id: alert.id, kind: "bad_signatures" } } });
    expect(() => new Webhook(ENV_SECRET).verify(toPage!.body, headers(toPage))).toThrow();
    expect(() => new Webhook(secret).verify(toEnv!.body, headers(toEnv))).toThrow();
  });

  it("a test notice is posted at once, signed with the target's secret, and says what came back", async () => {
    const added = await add("Ops chat", receiver.url);
    const [targetId, secret] = added.ok ? [added.id, added.secret] : ["", ""];
    expect(await sendTestNotice(actor, { targetId }, { policy: LOCAL_POLICY })).toEqual({
      ok: true,
      outcome: "Ops chat answered 200.",
    });
    const [posted] = receiver.received;
    const body = new Webhook(secret).verify(posted!.body, posted!.headers as Record<string, string>);
    expect(body).toMatchObject({
      type: "alert.test",
      data: { target: { id: targetId, name: "Ops chat" }, links: { alerts: "https://console.example.test/alerts" } },
    });

    receiver.answerWith(() => 500);
    expect(await sendTestNotice(actor, { targetId }, { policy: LOCAL_POLICY })).toEqual({
      ok: false,
      error: "The test notice to Ops chat failed: answered 500.",
    });
    const tested = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "alert.target_tested"))
      .orderBy(auditLog.id);
    expect(tested.map((r) => r.outcome)).toEqual(["success", "failure"]);
    expect(await db.select().from(alertNotices)).toEqual([]);
  });
});
