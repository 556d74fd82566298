import "server-only";

import { sql } from "drizzle-orm";
import type pg from "pg";

import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";

import { newUnpooledClient, targetFromEnv, type Executor } from "./index";

/**
 * Telling the other processes on one PostgreSQL database that something happened (NOTIFY, which the
 * server delivers at its transaction's commit to every session that LISTENs on the channel). PGlite is
 * one process, embedded: there is nobody else to tell, so neither sends nor listens there.
 */

/**
 * The channel of deliveries queued (forward_deliveries), by storing or a replay in any process, on which
 * every instance's forwarding workers listen to take them at once.
 */
export const DELIVERIES_QUEUED_CHANNEL = "forward_deliveries_queued";

/**
 * How long a listener waits before connecting again after losing its connection; it doubles after each failure, up
 * to the most.
 */
const FIRST_RECONNECT_MS = 250;
const MOST_RECONNECT_MS = 30_000;

/** Notifies `channel`: at the commit of the transaction `db` is, or at once outside one. */
export async function notify(db: Executor, channel: string): Promise<void> {
  if (targetFromEnv().kind === "pglite") return;
  await db.execute(sql`select pg_notify(${channel}, '')`);
}

export type Listening = { stop: () => Promise<void> };

/**
 * Calls `heard` on every notification on `channel`, from any process, and each time it has (re)connected, on a
 * connection of its own (a pooled one would take its LISTEN back to the pool); a lost connection is opened again
 * after a doubling wait. `stop` ends it for good. On PGlite it hears nothing.
 */
export function listen(channel: string, heard: () => void): Listening {
  const state = {
    stopped: false,
    client: null as pg.Client | null,
    connecting: null as Promise<void> | null,
    retry: undefined as NodeJS.Timeout | undefined,
    waitMs: FIRST_RECONNECT_MS,
  };

  const connectLater = (error: unknown) => {
    if (state.stopped || state.retry) return;
    logger.warn("listening for database notifications failed: connecting again", {
      channel,
      error: errorMessage(error),
      inMs: state.waitMs,
    });
    state.retry = setTimeout(() => {
      state.retry = undefined;
      connect();
    }, state.waitMs).unref();
    state.waitMs = Math.min(state.waitMs * 2, MOST_RECONNECT_MS);
  };

  const open = async () => {
    const client = await newUnpooledClient().catch((error: unknown) => void connectLater(error));
    if (!client || state.stopped) return;
    let lost = false;
    const lose = (error: unknown, { end }: { end: boolean }) => {
      if (lost) return;
      lost = true;
      if (state.client === client) state.client = null;
      if (end) client.end(() => {});
      connectLater(error);
    };
    // A client's error is fatal and its socket already closing: ending it then would destroy the socket
    // before its end, which leaves the driver's reader waiting for good.
    client.on("error", (error) => lose(error, { end: false }));
    client.on("end", () => lose(new Error("the connection ended"), { end: false }));
    client.on("notification", (message) => {
      if (message.channel === channel) heard();
    });
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      lose(error, { end: true });
      return;
    }
    state.client = client;
    state.waitMs = FIRST_RECONNECT_MS;
    heard();
  };

  const connect = () => {
    state.connecting = open().finally(() => (state.connecting = null));
  };

  connect();
  return {
    stop: async () => {
      state.stopped = true;
      clearTimeout(state.retry);
      await state.connecting;
      const client = state.client;
      state.client = null;
      await client?.end().catch(() => {});
    },
  };
}
