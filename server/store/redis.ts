// The plain-Redis connection shared stores use (rate limits, cache): it never makes a request wait on
// a dead Redis — no offline queue, short connect/command timeouts, reconnects in the background, and
// an 'error' listener so connection errors are reported instead of crashing the process.
import IORedis from "ioredis";

export function openRedis(url: string, timeoutMs: number, onError: (msg: string, err?: unknown) => void): IORedis {
  const client = new IORedis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: Math.max(1000, timeoutMs * 2),
    commandTimeout: Math.max(timeoutMs, 50),
    // keep trying to reconnect in the background, at most every 2 s
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  client.on("error", (err) => onError("redis connection error", err));
  return client;
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
