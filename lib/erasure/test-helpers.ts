/** What the erasure tests share: a realistic seed through the real receiver, and a scan of every text column. */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { sql } from "drizzle-orm";

import { recordAudit } from "@/lib/audit/audit";
import { rowsOf, type Database } from "@/lib/db";
import { dataPointWatches } from "@/lib/db/schema";
import { createDestination } from "@/lib/destinations/destinations";
import { cancelReplay, continueReplays, startReplay } from "@/lib/destinations/replay";
import { LOCAL_POLICY } from "@/lib/destinations/test-helpers";
import { forwardDueDeliveries } from "@/lib/destinations/worker";
import { expiredEvent, webhookRequest } from "@/lib/testing/webhooks";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { KEY1, KEY2 } from "@/lib/webhooks/test-helpers";

export const admin = { id: null, email: "admin@example.com" };

/** A tenant's handler that refuses every forward (so it stays queued) and echoes the body it got, as some do. */
export async function startEchoingHandler() {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => response.writeHead(500, { "content-type": "application/json" }).end(Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Posts a body to the connection's receiver URL, signed with `key`; its HTTP status. */
export async function post(token: string, body: object, key = KEY1): Promise<number> {
  return (await receiveWebhook(webhookRequest(token, body, { keys: [key] }))).status;
}

export type Person = { userId: string; email: string; phone: string };

/**
 * All the console can hold of a person, each the real way: events of two kinds in two connections, two
 * rejections of them (another body, a forged signature), forwards attempted (echoed), a replay filtered on
 * them (then cancelled), a lookup in the audit log, and a watched data point whose snapshot names them.
 */
export async function seedPerson(
  db: Database,
  person: Person,
  where: { acme: { id: string; token: string }; globex: { id: string; token: string }; destinationId: string },
) {
  const { userId, email, phone } = person;
  const expired = expiredEvent({
    data: { userId, email, verificationMethod: "EMAIL_OTP", userAuthenticatorId: `ua_${userId}_email` },
  });
  const created = {
    ...expiredEvent({ data: {} }),
    type: "authenticator.created",
    data: { userId, phoneNumber: phone, verificationMethod: "SMS" },
  };
  const inGlobex = expiredEvent({
    data: { userId, phoneNumber: phone, verificationMethod: "SMS", userAuthenticatorId: `ua_${userId}_sms` },
  });
  const statuses = [
    await post(where.acme.token, expired),
    await post(where.acme.token, created),
    await post(where.globex.token, inGlobex),
    await post(where.acme.token, { ...expired, time: "2025-06-01T12:00:06.000Z" }),
    await post(where.globex.token, inGlobex, KEY2),
  ];
  if (statuses.join() !== "200,200,200,200,401") throw new Error(`the receiver answered ${statuses.join()}`);
  await forwardDueDeliveries(LOCAL_POLICY);
  const replay = await startReplay(admin, {
    connectionId: where.acme.id,
    destinationId: where.destinationId,
    filters: new URLSearchParams({ userId }).toString(),
  });
  if (!replay.ok) throw new Error(replay.error);
  await continueReplays();
  // Cancelled, so that the next person's replay to the destination may start (one at a time).
  await cancelReplay(admin, { replayId: replay.replayId });
  await recordAudit({
    actor: admin,
    action: "user_authenticators.viewed",
    outcome: "success",
    connection: { id: where.acme.id, name: "Acme" },
    target: userId,
  });
  await db.insert(dataPointWatches).values({
    connectionId: where.acme.id,
    dataPointId: `plan_of_${userId}`,
    snapshot: {
      id: `plan_of_${userId}`,
      name: "Plan",
      dataType: "text",
      modelType: "user",
      description: `Chosen by ${email}`,
      isPublic: false,
    },
  });
}

/** A forwarding destination on the connection that echoes what it gets and refuses it. */
export async function addEchoingDestination(connectionId: string, url: string): Promise<string> {
  const created = await createDestination(
    admin,
    { connectionId, name: "Echo", url, signing: "service", eventTypes: [], verificationMethods: [] },
    LOCAL_POLICY,
  );
  if (!created.ok) throw new Error(created.error);
  return created.id;
}

/**
 * Every text, JSON and array column of every table (information_schema), and how many of its rows hold
 * any of `values`: "table.column" → rows, only those with some.
 */
export async function scanForValues(db: Database, values: readonly string[]): Promise<Record<string, number>> {
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb', 'ARRAY')
      order by table_name, column_name`),
  );
  const wanted = JSON.stringify(values);
  const counts = columns.map(
    ({
      table_name,
      column_name,
    }) => sql`select ${`${table_name}.${column_name}`} as "column", count(*)::int as n from ${sql.identifier(table_name)}
      where exists (select 1 from json_array_elements_text(${wanted}::json) as v(value) where strpos(${sql.identifier(column_name)}::text, v.value) > 0)`,
  );
  const rows = rowsOf<{ column: string; n: number }>(await db.execute(sql.join(counts, sql` union all `)));
  return Object.fromEntries(rows.filter((row) => row.n > 0).map((row) => [row.column, row.n]));
}
