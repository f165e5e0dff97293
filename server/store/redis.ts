// Every Redis connection of the process is opened here (docs/architecture.md#one-road-per-concern): the
// shared stores' (rate limits, cache, readiness, the live channel's publisher) never make a request
// wait on a dead Redis — no offline queue, short connect/command timeouts, reconnects in the
// background — and every connection has an 'error' listener, so connection errors are reported
// instead of crashing the process.
import IORedis from "ioredis";

type OnError = (msg: string, err?: unknown) => void;

/** What every connection shares: how long a connect may take, and reconnecting in the background. */
function connectionOptions(timeoutMs: number) {
  return {
    connectTimeout: Math.max(1000, timeoutMs * 2),
    // keep trying to reconnect in the background, at most every 2 s
    retryStrategy: (times: number) => Math.min(times * 200, 2000),
  };
}

function reporting(client: IORedis, onError: OnError): IORedis {
  client.on("error", (err) => onError("redis connection error", err));
  return client;
}

export function openRedis(url: string, timeoutMs: number, onError: OnError): IORedis {
  return reporting(
    new IORedis(url, {
      ...connectionOptions(timeoutMs),
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: Math.max(timeoutMs, 50),
    }),
    onError,
  );
}

/**
 * A dedicated subscriber connection (pub/sub: a subscribed connection can run nothing else). The same
 * connect and reconnect settings; its SUBSCRIBE waits for the connection instead of failing (no
 * request waits on it), and ioredis subscribes again after every reconnect.
 */
export function openRedisSubscriber(url: string, timeoutMs: number, onError: OnError): IORedis {
  return reporting(new IORedis(url, { ...connectionOptions(timeoutMs), maxRetriesPerRequest: null }), onError);
}

/**
 * Resolves when the connection is usable. The first use connects (lazyConnect) and waits for it,
 * bounded by the timeout; while ioredis is between reconnect attempts, fails immediately.
 */
export function redisReady(c: IORedis, timeoutMs: number): Promise<void> {
  if (c.status === "ready") return Promise.resolve();
  if (c.status === "wait") c.connect().catch(() => {}); // the 'error' listener reports it
  if (c.status !== "connecting" && c.status !== "connect") {
    return Promise.reject(new Error(`redis not connected (status: ${c.status})`));
  }
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      c.off("ready", onReady);
      c.off("close", onClose);
      c.off("end", onClose);
      if (err) reject(err);
      else resolve();
    };
    const onReady = () => done();
    const onClose = () => done(new Error("redis connection closed"));
    const timer = setTimeout(() => done(new Error(`redis not ready after ${timeoutMs} ms`)), timeoutMs);
    c.once("ready", onReady);
    c.once("close", onClose);
    c.once("end", onClose);
  });
}

export async function closeRedis(c: IORedis): Promise<void> {
  if (c.status === "ready") {
    try {
      await c.quit();
      return;
    } catch {
      /* fall through to disconnect */
    }
  }
  c.disconnect();
}
