import net from "node:net";
import http from "node:http";
import { randomUUID } from "node:crypto";
import IORedis from "ioredis";
import { isNoScriptError, prepareScript, type PreparedScript } from "~/server/ratelimit/lua";
import { sleep } from "../helpers/time.ts";

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

export function portOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Redis tests run when REDIS_URL is set (CI: must work) or when the local default port answers. */
export const redisAvailable: boolean = process.env.REDIS_URL ? true : await portOpen("127.0.0.1", 6379);

export function uniquePrefix(name: string): string {
  return `test-rl:${name}:${randomUUID()}`;
}


/**
 * The sliding window weights the previous bucket, so a burst that straddles a bucket boundary is
 * (correctly) allowed a little more than `limit`. Tests that count a burst exactly start it with at
 * least `needMs` left in the current bucket.
 */
export async function clearOfBoundary(windowMs: number, needMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await sleep(left + 20);
}

type Reply = string | number | null | Reply[];

function encode(v: unknown, base64: boolean): Reply {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return v;
  if (Buffer.isBuffer(v)) v = v.toString("utf8");
  if (typeof v === "string") return base64 && v !== "OK" ? Buffer.from(v, "utf8").toString("base64") : v;
  if (Array.isArray(v)) return v.map((x) => encode(x, base64));
  return String(v);
}

export interface FakeUpstash {
  url: string;
  token: string;
  /** number of Redis commands executed through the REST API */
  commands: number;
  /** HTTP requests received, by path */
  requests: Record<string, number>;
  /** when true every request answers 500 */
  failing: boolean;
  close(): Promise<void>;
}

/**
 * A local stand-in for Upstash's REST API, forwarding to a real Redis through ioredis:
 *   POST /            body ["CMD", ...args]           → {"result": ...} | 400 {"error": "..."}
 *   POST /pipeline    body [["CMD", ...], ...]        → [{"result": ...} | {"error": "..."}, ...]
 *   POST /multi-exec  body [["CMD", ...], ...]        → same shape, run in MULTI/EXEC
 * `Authorization: Bearer <token>` is required (401 otherwise). With `Upstash-Encoding: base64`
 * (what @upstash/redis sends by default) string results are base64-encoded, as Upstash does.
 * Upstash accepts the `#!lua flags=...` shebang; Redis 7.0 does not, so like Upstash's own
 * scripting layer this server strips it and answers EVALSHA for the original hash.
 */
export async function startFakeUpstash(redisUrl = REDIS_URL, token = "test-token"): Promise<FakeUpstash> {
  const redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
  redis.on("error", () => {});
  const scripts = new Map<string, PreparedScript>();

  async function runScript(p: PreparedScript, rest: string[]): Promise<unknown> {
    try {
      return await redis.call("EVALSHA", p.sha, ...rest);
    } catch (err) {
      if (!isNoScriptError(err)) throw err;
      return redis.call("EVAL", p.script, ...rest);
    }
  }

  async function exec(cmd: unknown[]): Promise<unknown> {
    state.commands++;
    const [name, ...args] = cmd.map((a) => (typeof a === "string" ? a : JSON.stringify(a)));
    const upper = name.toUpperCase();
    if (upper === "EVAL") {
      const p = prepareScript(args[0]);
      scripts.set(p.originalSha, p);
      return runScript(p, args.slice(1));
    }
    if (upper === "EVALSHA" && scripts.has(args[0])) {
      return runScript(scripts.get(args[0])!, args.slice(1));
    }
    return redis.call(name, ...args);
  }

  const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const path = (req.url ?? "/").split("?")[0];
      state.requests[path] = (state.requests[path] ?? 0) + 1;
      if (state.failing) return send(500, { error: "ERR service unavailable (test)" });
      if (req.method !== "POST") return send(405, { error: "ERR method not allowed" });
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
      const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return send(400, { error: "ERR failed to parse command" });
      }
      try {
        if (path === "/" || path === "") {
          if (!Array.isArray(body) || body.length === 0) return send(400, { error: "ERR empty command" });
          try {
            return send(200, { result: encode(await exec(body), base64) });
          } catch (e) {
            return send(400, { error: errText(e) });
          }
        }
        if (path === "/pipeline") {
          const out = [];
          for (const cmd of body as unknown[][]) {
            try {
              out.push({ result: encode(await exec(cmd), base64) });
            } catch (e) {
              out.push({ error: errText(e) });
            }
          }
          return send(200, out);
        }
        if (path === "/multi-exec") {
          const cmds = body as unknown[][];
          state.commands += cmds.length;
          const results = (await redis
            .multi(cmds.map((c) => c.map((a) => (typeof a === "string" ? a : JSON.stringify(a)))) as string[][])
            .exec()) ?? [];
          return send(
            200,
            results.map(([err, r]) => (err ? { error: errText(err) } : { result: encode(r, base64) })),
          );
        }
        return send(404, { error: "ERR not found" });
      } catch (e) {
        return send(500, { error: errText(e) });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;

  const state: FakeUpstash = {
    url: `http://127.0.0.1:${port}`,
    token,
    commands: 0,
    requests: {},
    failing: false,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await redis.quit().catch(() => redis.disconnect());
    },
  };
  return state;
}

/** A TCP server that accepts connections and never answers (a black-holed store). */
export async function startBlackHole(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A TCP proxy to the real Redis that can be cut and restored (a Redis outage and its recovery). */
export async function startProxy(target: URL): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const listen = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect({ host: target.hostname, port: Number(target.port || 6379) });
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("error", () => {});
        s.on("close", () => {
          sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => server!.listen(port, "127.0.0.1", r));
    port = (server.address() as net.AddressInfo).port;
  };
  const cut = async () => {
    const s = server;
    server = undefined;
    for (const so of sockets) so.destroy();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  await listen();
  return { url: `redis://127.0.0.1:${port}`, cut, restore: listen, close: cut };
}
