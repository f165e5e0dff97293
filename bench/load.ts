// Load generation: one autocannon run against one server and endpoint, and the figures measured
// around it (req/s, latency, errors, SQL statements, CPU time and memory of the server process).
import http from "node:http";
import autocannon, { type Result } from "autocannon";
import { cpuSecondsOf, memoryOf, probe, settle, type Server } from "./orchestration.ts";
import type { Options } from "./options.ts";

export interface RequestSpec {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Endpoint {
  name: string;
  /** read/vote: the API table; page: the page table (its yardstick is the static file, kind "static"). */
  kind: "read" | "vote" | "page" | "static";
  /** The route as the OpenAPI document names it (to skip endpoints that do not exist yet). */
  route: string;
  /** What the table shows. */
  label: string;
  /** The next request: rotates ids and tokens. */
  next: () => RequestSpec;
  /** Bare server has it. */
  bare: boolean;
  /** Where `next()`'s paths live (default /api/v1; pages and files: the site root). */
  pathPrefix?: string;
  /** Concurrent connections for this endpoint (default: --connections). */
  connections?: number;
  /** Pages only: signed in (a NextAuth session cookie is sent). */
  signedIn?: boolean;
}

export interface RunFigures {
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  queriesPerRequest: number | null;
  /** CPU time of the server process per completed request: unlike req/s, barely moved by other load on the machine. */
  cpuMsPerRequest: number | null;
  cpuPercent: number;
  rssMb: number;
}

async function cannon(server: Server, endpoint: Endpoint, duration: number, connections: number): Promise<Result> {
  return autocannon({
    url: server.base,
    connections,
    duration,
    timeout: 30,
    requests: [
      {
        setupRequest: (req) => {
          const spec = endpoint.next();
          return {
            ...req,
            method: spec.method ?? "GET",
            path: `${endpoint.pathPrefix ?? "/api/v1"}${spec.path}`,
            headers: { ...(spec.body ? { "content-type": "application/json" } : {}), ...spec.headers },
            body: spec.body,
          };
        },
      },
    ],
  });
}

export async function measure(server: Server, endpoint: Endpoint, opts: Options, profileFile?: string): Promise<RunFigures> {
  const connections = endpoint.connections ?? opts.connections;
  if (opts.warmup > 0) await cannon(server, endpoint, opts.warmup, connections);
  const pid = server.child.pid!;
  const before = await settle(server);
  if (profileFile) await probe(server, { type: "profile-start" });
  const cpuBefore = cpuSecondsOf(pid);
  let rss = 0;
  const sampler = setInterval(() => (rss = Math.max(rss, memoryOf(pid).rss)), 250);
  const started = performance.now();
  const result = await cannon(server, endpoint, opts.duration, connections);
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = await settle(server);
  const cpu = cpuSecondsOf(pid) - cpuBefore;
  if (profileFile) await probe(server, { type: "profile-stop", file: profileFile });
  const queries = after.queries - before.queries;
  const served = after.responses - before.responses;
  server.peakRssMb = Math.max(server.peakRssMb, memoryOf(pid).peak);
  const total = result.requests.total;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count]));
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    queriesPerRequest: served > 0 ? Math.round((queries / served) * 10) / 10 : null,
    cpuMsPerRequest: served > 0 ? Math.round((cpu * 1000 * 100) / served) / 100 : null,
    cpuPercent: Math.round((100 * cpu) / elapsed),
    rssMb: Math.round(rss),
  };
}

export interface ResponseBytes {
  status: number;
  /** The body as sent without Accept-Encoding (uncompressed). */
  bytes: number;
  /** The body as sent to a client accepting gzip, when the server compresses it; null when it does not. */
  gzipBytes: number | null;
}

/** One response's size on the wire, uncompressed and (if the server compresses) gzip'd. */
export async function responseBytes(server: Server, spec: RequestSpec): Promise<ResponseBytes> {
  const plain = await rawGet(`${server.base}${spec.path}`, spec.headers ?? {});
  const gzip = await rawGet(`${server.base}${spec.path}`, { ...spec.headers, "accept-encoding": "gzip" });
  return { status: plain.status, bytes: plain.body.length, gzipBytes: gzip.encoding === "gzip" ? gzip.body.length : null };
}

/** A GET whose body is counted as received (node's fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; encoding: string | null; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, encoding: (res.headers["content-encoding"] as string | undefined) ?? null, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`GET ${url}: no answer within 60 s`)));
  });
}
