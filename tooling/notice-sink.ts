import http from "node:http";
import type { AddressInfo } from "node:net";

import { SMTPServer } from "smtp-server";
import { Webhook } from "standardwebhooks";

/**
 * Where the console's alert notices land in the demo, the tour or a test: an HTTP receiver that verifies each
 * notice's Standard Webhooks signature as an operator's handler would (401, listed as refused, when wrong), and an
 * SMTP sink that accepts every mail; `GET /` lists the last MAX_KEPT of each (`GET /notices.json` as JSON).
 */

export type SinkNotice = {
  at: string;
  /** The webhook-id header: the same on every attempt of one notice. */
  id: string;
  type: string;
  subject: string;
  text: string;
  /** The connection the notice names, and its link to the alert in the console (a verified notice only). */
  connection: string;
  link: string | null;
  verified: boolean;
  answered: number;
};
export type SinkMail = { at: string; from: string; to: string[]; subject: string; text: string };
export type NoticeSinkOptions = { webhookPort: number; smtpPort: number; secret: string };

const MAX_KEPT = 100;
const MAX_BODY_BYTES = 256 * 1024;
const MAX_TEXT = 2_000;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const keep = <T>(list: T[], item: T) => {
  list.unshift(item);
  list.length = Math.min(list.length, MAX_KEPT);
};

/** What a notice's JSON says, as far as it can be read; a body that is not JSON keeps its first characters as text. */
function readNotice(body: string): Pick<SinkNotice, "type" | "subject" | "text" | "connection"> & { link: unknown } {
  try {
    const n = JSON.parse(body) as {
      type?: unknown;
      subject?: unknown;
      text?: unknown;
      data?: { connection?: { name?: unknown }; links?: { alert?: unknown } };
    };
    const str = (v: unknown) => (typeof v === "string" ? v.slice(0, MAX_TEXT) : "");
    return {
      type: str(n.type) || "?",
      subject: str(n.subject),
      text: str(n.text),
      connection: str(n.data?.connection?.name),
      link: n.data?.links?.alert,
    };
  } catch {
    return { type: "unreadable", subject: "", text: body.slice(0, 200), connection: "", link: null };
  }
}

function verifies(webhook: Webhook, body: string, headers: http.IncomingHttpHeaders): boolean {
  const header = (name: string) => (typeof headers[name] === "string" ? headers[name] : "");
  try {
    webhook.verify(body, {
      "webhook-id": header("webhook-id"),
      "webhook-timestamp": header("webhook-timestamp"),
      "webhook-signature": header("webhook-signature"),
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * An RFC 2047 header value (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`, as nodemailer writes a subject that is not ASCII) in
 * plain text.
 */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?[^?]+\?([BbQq])\?([^?]*)\?=/g, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(
            text
              .replace(/_/g, " ")
              .replace(/=([0-9A-Fa-f]{2})/g, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            "latin1",
          ).toString("utf8"),
    );
}

/** A plain-text mail's subject and body (quoted-printable or base64 as nodemailer sends them). */
function readMail(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r?\n[ \t]+/g, " ");
  const body = split < 0 ? "" : raw.slice(split).trim();
  const header = (name: string) =>
    head
      .split(/\r?\n/)
      .find((line) => line.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim() ?? "";
  const encoding = header("content-transfer-encoding").toLowerCase();
  const text =
    encoding === "base64"
      ? Buffer.from(body, "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? Buffer.from(
            body
              .replace(/=\r?\n/g, "")
              .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            "latin1",
          ).toString("utf8")
        : body;
  return { subject: decodeHeader(header("subject")), text: text.slice(0, MAX_TEXT) };
}

function page(notices: readonly SinkNotice[], mails: readonly SinkMail[], smtpUrl: string): string {
  const cell = (text: string) => `<td>${escapeHtml(text)}</td>`;
  const noticeRows = notices
    .map(
      (n) =>
        `<tr>${cell(n.at)}${cell(n.type)}<td><strong>${escapeHtml(n.subject)}</strong>${n.link ? ` <a href="${escapeHtml(n.link)}">open in the console</a>` : ""}</td>` +
        `<td class="text">${escapeHtml(n.text)}</td><td>${n.verified ? "verified" : "refused"}</td>${cell(String(n.answered))}</tr>`,
    )
    .join("");
  const mailRows = mails
    .map(
      (m) =>
        `<tr>${cell(m.at)}${cell(m.to.join(", "))}<td><strong>${escapeHtml(m.subject)}</strong></td><td class="text">${escapeHtml(m.text)}</td></tr>`,
    )
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Alert notices</title>
<style>body{font:14px system-ui;margin:2rem;color-scheme:light dark}td,th{padding:.25rem .6rem;text-align:left;vertical-align:top}.text{white-space:pre-wrap;max-width:48rem}</style></head>
<body><h1>Alert notices received</h1>
<h2>Webhook notices</h2><p>${notices.length} received, newest first (the signature verified with the standardwebhooks package; a refused one was answered 401).</p>
<table><thead><tr><th>Received</th><th>Type</th><th>Subject</th><th>Text</th><th>Signature</th><th>Answered</th></tr></thead><tbody>${noticeRows}</tbody></table>
<h2>Email</h2><p>${mails.length} received at ${escapeHtml(smtpUrl)}, newest first.</p>
<table><thead><tr><th>Received</th><th>To</th><th>Subject</th><th>Text</th></tr></thead><tbody>${mailRows}</tbody></table></body></html>`;
}

function listen(
  server: {
    listen(port: number, host: string, callback: () => void): unknown;
    once(event: "error", listener: (error: Error) => void): unknown;
  },
  port: number,
) {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
}

export async function startNoticeSink({ webhookPort, smtpPort, secret }: NoticeSinkOptions) {
  const webhook = new Webhook(secret);
  const notices: SinkNotice[] = [];
  const mails: SinkMail[] = [];
  let smtpUrl = "";

  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (request.method === "GET" && path === "/") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(notices, mails, smtpUrl));
      return;
    }
    if (request.method === "GET" && path === "/notices.json") {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ notices, mails }));
      return;
    }
    if (request.method !== "POST") {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on("end", () => {
      if (size > MAX_BODY_BYTES) {
        response.writeHead(413).end();
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      const verified = verifies(webhook, body, request.headers);
      const answered = verified ? 200 : 401;
      const { link, ...read } = readNotice(body);
      const id = typeof request.headers["webhook-id"] === "string" ? request.headers["webhook-id"] : "";
      // A link is shown only from a notice the console signed, and only to an http(s) address.
      const safeLink = verified && typeof link === "string" && /^https?:\/\//.test(link) ? link : null;
      keep(notices, { at: new Date().toISOString(), id, ...read, link: safeLink, verified, answered });
      response.writeHead(answered, { "content-type": "application/json" }).end(JSON.stringify({ ok: verified }));
    });
  });

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    size: MAX_BODY_BYTES,
    closeTimeout: 1_000,
    banner: "Tenant Console demo notice sink",
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const { subject, text } = readMail(Buffer.concat(chunks).toString("utf8"));
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        keep(mails, {
          at: new Date().toISOString(),
          from,
          to: session.envelope.rcptTo.map((r) => r.address),
          subject,
          text,
        });
        callback();
      });
    },
  });

  // A client that drops its connection is its own problem, not the demo's: without a listener, the error would end the
  // process.
  smtp.on("error", () => {});
  await listen(server, webhookPort);
  try {
    await listen(smtp.server, smtpPort);
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  const pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  return {
    /** Where the console posts its notices (CONSOLE_ALERT_WEBHOOK_URLS). */
    webhookUrl: `${pageUrl}/notices`,
    /** CONSOLE_SMTP_URL. */
    smtpUrl,
    /** The page that lists what arrived. */
    pageUrl,
    notices,
    mails,
    stop: async () => {
      server.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => server.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ]);
    },
  };
}

export type NoticeSink = Awaited<ReturnType<typeof startNoticeSink>>;
