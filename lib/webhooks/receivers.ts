import "server-only";

import { eq } from "drizzle-orm";

import { hashWebhookToken, onConnectionChanged, readServerKeys } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { connections } from "@/lib/db/schema";
import { processSingleton } from "@/lib/process-singleton";

/** The connection a webhook URL belongs to, with its server keys decrypted, in signature order. */
export type Receiver = { id: string; keys: string[] };

/**
 * How long a receiver is kept in memory. Within one instance an edit of the keys, a regenerated URL or
 * a deleted connection forgets it at once (forgetReceiver); another instance serving the same database
 * can go on using what it read for at most this long.
 */
export const RECEIVER_CACHE_MS = 5_000;
/** Bounds the memory a cache of URLs can take; past it the cache starts over. */
const MAX_CACHED_RECEIVERS = 10_000;

type Cached = { receiver: Receiver; readAt: number };
/**
 * The cache, and a generation each forgetReceiver bumps (a read begun before a change must not cache it), the
 * process's: Next bundles the webhook route and the actions that change a connection apart, and a regenerated
 * URL must stop working in the route's copy at once, not RECEIVER_CACHE_MS later.
 */
const cache = processSingleton("webhooks.receiver-cache", () => ({
  entries: new Map<string, Cached>(),
  generation: 0,
}));

/**
 * The receiver of a webhook URL token, or null when no connection has it. Found receivers are cached
 * for RECEIVER_CACHE_MS, so a stream of deliveries costs no lookup and no decryption per request;
 * unknown tokens are not (a flood of random ones would only fill the cache), and neither are errors.
 */
export async function findReceiver(token: string, now = Date.now()): Promise<Receiver | null> {
  const tokenHash = hashWebhookToken(token);
  const cached = cache.entries.get(tokenHash);
  if (cached && now - cached.readAt < RECEIVER_CACHE_MS) return cached.receiver;
  const readingFrom = cache.generation;
  const db = await getDb();
  const [connection] = await db
    .select({ id: connections.id })
    .from(connections)
    .where(eq(connections.webhookTokenHash, tokenHash))
    .limit(1);
  if (!connection) {
    cache.entries.delete(tokenHash);
    return null;
  }
  const receiver = { id: connection.id, keys: await readServerKeys(connection.id) };
  if (readingFrom !== cache.generation) return receiver;
  if (cache.entries.size >= MAX_CACHED_RECEIVERS) cache.entries.clear();
  cache.entries.set(tokenHash, { receiver, readAt: now });
  return receiver;
}

/**
 * Drops what is cached for a connection: called once a change to its keys, its URL or its existence has
 * committed (a regenerated URL here, by ./url.ts; the rest by lib/connections, through onConnectionChanged).
 */
export function forgetReceiver(connectionId: string): void {
  cache.generation++;
  for (const [tokenHash, cached] of cache.entries)
    if (cached.receiver.id === connectionId) cache.entries.delete(tokenHash);
}
onConnectionChanged(forgetReceiver);
