// The live channel of claim pages (docs/features/following.md): "something happened on claim X". One process-wide
// bus (server/process-singleton.ts: Next's bundles and the custom server share it) that SSE streams listen to, fed
// across instances by PostgreSQL LISTEN/NOTIFY — the relay's NOTIFY commits with its transaction —
// or by Redis pub/sub when REDIS_URL is set. On the embedded PGlite there is one process: the relay
// emits on the bus directly.
import { EventEmitter } from "node:events";
import pg from "pg";
import type IORedis from "ioredis";
import { closeRedis, openRedis, openRedisSubscriber, redisReady } from "../store/redis.ts";
import { throttledLogger } from "../store/throttled-log.ts";
import { logWarn } from "../log/logger.ts";
import { config } from "../config.ts";
import { randomUUID } from "node:crypto";
import { db, dbBackend, dbSchema } from "../db/client.ts";
import { processSingleton, processSlot } from "../process-singleton.ts";

export interface LiveEvent {
  claim_id: string;
  type: string;
  event_id: string;
}

interface LiveState {
  bus: EventEmitter;
  subscriber?: { close(): Promise<void> };
  publisher?: IORedis;
}

function state(): LiveState {
  return processSingleton("claims.live", () => {
    const bus = new EventEmitter();
    // One listener per open claim page stream.
    bus.setMaxListeners(0);
    return { bus };
  });
}

/** How long a publish waits for the connection: a dead Redis fails it after this instead of holding its caller. */
const REDIS_TIMEOUT_MS = 2000;
const warn = throttledLogger("live", logWarn);

/** The channel name: per schema, so that test schemas on one PostgreSQL do not hear each other. */
export function liveChannel(): string {
  return `claims_live${dbSchema() ? `_${dbSchema()}` : ""}`;
}

export type LiveTransport = "local" | "postgres" | "redis";

export function liveTransport(): LiveTransport {
  if (dbBackend() === "pglite") return "local";
  return config().REDIS_URL ? "redis" : "postgres";
}

/** Listens for one claim's events; returns the function that stops listening. */
export function onClaimEvent(claimId: string, fn: (e: LiveEvent) => void): () => void {
  const { bus } = state();
  const name = `claim:${claimId}`;
  bus.on(name, fn);
  return () => bus.off(name, fn);
}

/** The claim id of an event that concerns every page: moderation took something away or gave it back. */
export const EVERY_PAGE = "*";

/** Listens for every event (the page cache: a claim's copies are dropped when it changes). */
export function onAnyLiveEvent(fn: (e: LiveEvent) => void): () => void {
  const { bus } = state();
  bus.on("any", fn);
  return () => bus.off("any", fn);
}

/** Delivers an event to this process's listeners. */
export function emitLocal(e: LiveEvent): void {
  const { bus } = state();
  bus.emit(`claim:${e.claim_id}`, e);
  bus.emit("any", e);
}

/** After a moderation change has committed: every instance drops its shared page renders. */
export async function announcePagesChanged(): Promise<void> {
  const e: LiveEvent = { claim_id: EVERY_PAGE, type: "pages.changed", event_id: randomUUID() };
  if (liveTransport() === "postgres") await db().$executeRaw`SELECT pg_notify(${liveChannel()}, ${JSON.stringify(e)})`;
  else await publishLive([e]);
}

/**
 * After a change that records no outbox event has committed (an edit): the claim's page is rendered
 * anew and its open pages hear of it, as after a vote.
 */
export async function announceClaimChanged(claimId: string, type: string): Promise<void> {
  const e: LiveEvent = { claim_id: claimId, type, event_id: randomUUID() };
  if (liveTransport() === "postgres") await db().$executeRaw`SELECT pg_notify(${liveChannel()}, ${JSON.stringify(e)})`;
  else await publishLive([e]);
}

/** After commit, for the Redis transport (the PostgreSQL one notifies inside the relay's transaction). */
export async function publishLive(events: LiveEvent[]): Promise<void> {
  if (events.length === 0) return;
  const transport = liveTransport();
  if (transport === "local") {
    for (const e of events) emitLocal(e);
    return;
  }
  if (transport === "redis") {
    const s = state();
    const publisher = (s.publisher ??= openRedis(config().REDIS_URL!, REDIS_TIMEOUT_MS, warn));
    await redisReady(publisher, REDIS_TIMEOUT_MS);
    for (const e of events) await publisher.publish(liveChannel(), JSON.stringify(e));
  }
}

function parse(payload: string | null | undefined): LiveEvent | null {
  try {
    const e = JSON.parse(payload ?? "");
    return typeof e?.claim_id === "string" ? (e as LiveEvent) : null;
  } catch {
    return null;
  }
}

/** Subscribes this process to the shared channel (idempotent). */
export async function startLiveSubscriber(): Promise<void> {
  const s = state();
  if (s.subscriber) return;
  const transport = liveTransport();
  if (transport === "local") {
    s.subscriber = { close: async () => {} };
    return;
  }
  if (transport === "redis") {
    const sub = openRedisSubscriber(config().REDIS_URL!, REDIS_TIMEOUT_MS, warn);
    sub.on("message", (_channel, message) => {
      const e = parse(message);
      if (e) emitLocal(e);
    });
    // Not awaited: a Redis that is down must not keep the server from serving (the rate limiter fails
    // open the same way); ioredis subscribes once it connects, and again after every reconnect.
    sub.subscribe(liveChannel()).catch(() => {});
    s.subscriber = { close: async () => void sub.disconnect() };
    return;
  }
  s.subscriber = listenPostgres(liveChannel(), (payload) => {
    const e = parse(payload);
    if (e) emitLocal(e);
  });
}

export async function stopLive(): Promise<void> {
  const s = processSlot<LiveState>("claims.live").get();
  if (!s) return;
  await s.subscriber?.close();
  s.subscriber = undefined;
  const publisher = s.publisher;
  s.publisher = undefined;
  if (publisher) await closeRedis(publisher);
}

/**
 * A dedicated LISTEN connection (a pooled one cannot hold a LISTEN), reconnected after a failure.
 * `onReconnect` runs after every (re)connection: the caller catches up on what it may have missed.
 */
export function listenPostgres(
  channel: string,
  onMessage: (payload: string | undefined) => void,
  onReconnect?: () => void,
): { close(): Promise<void> } {
  const url = new URL(config().DATABASE_URL!);
  url.searchParams.delete("schema");
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url.toString() });
    client = c;
    c.on("error", () => {});
    c.on("end", () => {
      if (!closed) retry = setTimeout(() => void connect(), 1000);
    });
    c.on("notification", (n) => {
      if (n.channel === channel) onMessage(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel}"`);
      onReconnect?.();
    } catch {
      await c.end().catch(() => {});
    }
  };
  void connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
