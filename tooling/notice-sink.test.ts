import crypto from "node:crypto";

import nodemailer from "nodemailer";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startNoticeSink, type NoticeSink } from "./notice-sink";

// The demo's notice sink for real: signatures checked with the standardwebhooks package, and mail sent
// to its SMTP server by nodemailer, the console's own sender.

const secret = `whsec_${crypto.randomBytes(24).toString("base64")}`;
let sink: NoticeSink;

beforeAll(async () => {
  sink = await startNoticeSink({ webhookPort: 0, smtpPort: 0, secret });
});
afterAll(() => sink.stop());

/** A notice as the console sends it (lib/alerts/notices.ts), signed with `signingSecret` `secondsAgo` ago. */
function post(
  signingSecret: string | null,
  { subject = "Alert: Signatures refused on Acme (US)", secondsAgo = 0 } = {},
) {
  const body = JSON.stringify({
    type: "alert.opened",
    timestamp: new Date().toISOString(),
    subject,
    text: `*${subject}*\n3 deliveries refused for a bad signature in 15 min (threshold 3).`,
    data: {
      alert: { kind: "bad_signatures" },
      connection: { id: "c1", name: "Acme", region: "us" },
      links: { alert: "http://127.0.0.1:3000/alerts?kind=bad_signatures" },
    },
  });
  const id = `alert-notice-${crypto.randomInt(1_000_000)}`;
  const at = new Date(Date.now() - secondsAgo * 1000);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signingSecret) {
    Object.assign(headers, {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(signingSecret).sign(id, at, body),
    });
  }
  return fetch(sink.webhookUrl, { method: "POST", headers, body });
}

describe("the notice sink", () => {
  it("keeps a notice signed with its secret, and lists it on its page and as JSON", async () => {
    const response = await post(secret, { subject: "Alert: Signatures refused on <Acme> (US)" });
    expect(response.status).toBe(200);
    expect(sink.notices[0]).toMatchObject({
      type: "alert.opened",
      subject: "Alert: Signatures refused on <Acme> (US)",
      text: expect.stringContaining("threshold 3"),
      connection: "Acme",
      link: "http://127.0.0.1:3000/alerts?kind=bad_signatures",
      verified: true,
      answered: 200,
    });
    const json = (await (await fetch(`${sink.pageUrl}/notices.json`)).json()) as { notices: unknown[] };
    expect(json.notices[0]).toEqual(sink.notices[0]);
    const page = await (await fetch(sink.pageUrl)).text();
    expect(page).toContain("Signatures refused on &#60;Acme&#62; (US)");
    expect(page).not.toContain("<Acme>");
  });

  it("refuses with 401 a notice signed with another secret, unsigned, or signed too long ago, and lists it as refused", async () => {
    const other = `whsec_${crypto.randomBytes(24).toString("base64")}`;
    for (const [signingSecret, secondsAgo] of [
      [other, 0],
      [null, 0],
      [secret, 600],
    ] as const) {
      const before = sink.notices.length;
      expect((await post(signingSecret, { secondsAgo })).status).toBe(401);
      expect(sink.notices.length).toBe(before + 1);
      // Refused: its link (which anyone could have written) is not offered.
      expect(sink.notices[0]).toMatchObject({ verified: false, answered: 401, link: null });
    }
    expect(await (await fetch(sink.pageUrl)).text()).toContain("refused");
  });

  it("accepts the mail nodemailer sends to its SMTP server, and keeps its subject, recipients and text", async () => {
    const transporter = nodemailer.createTransport(sink.smtpUrl);
    await transporter.sendMail({
      from: "tenant-console@localhost",
      to: "oncall@demo.test, backup@demo.test",
      subject: "Alert: Signatures refused on Acmé (EU)",
      text: `Alert: Signatures refused on Acmé (EU)\nOpen in Tenant Console: http://127.0.0.1:3000/alerts?${"connectionId=".padEnd(90, "x")}`,
    });
    expect(sink.mails[0]).toMatchObject({
      from: "tenant-console@localhost",
      to: ["oncall@demo.test", "backup@demo.test"],
      subject: "Alert: Signatures refused on Acmé (EU)",
      text: expect.stringContaining(
        `Open in Tenant Console: http://127.0.0.1:3000/alerts?${"connectionId=".padEnd(90, "x")}`,
      ),
    });
    expect(await (await fetch(sink.pageUrl)).text()).toContain("oncall@demo.test, backup@demo.test");
  });
});
