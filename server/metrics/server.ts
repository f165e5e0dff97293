// The metrics endpoint: GET /metrics on its own port (METRICS_PORT, bound to METRICS_HOST, 127.0.0.1
// unless told otherwise), so it is never reachable through the public port or the load balancer.
// With METRICS_TOKEN set it also wants `Authorization: Bearer <token>`.
import { createServer, type Server } from "node:http";
import { timingSafeEqual } from "node:crypto";
import { scrape } from "./index.ts";

export interface MetricsServerOptions {
  port: number;
  host: string;
  token?: string;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7) : "");
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

export function startMetricsServer(opts: MetricsServerOptions): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
      return;
    }
    if (opts.token && !tokenMatches(req.headers.authorization, opts.token)) {
      res.writeHead(401, { "Content-Type": "text/plain", "WWW-Authenticate": "Bearer" }).end("unauthorized\n");
      return;
    }
    scrape().then(
      ({ contentType, body }) => res.writeHead(200, { "Content-Type": contentType }).end(req.method === "HEAD" ? undefined : body),
      () => res.writeHead(500, { "Content-Type": "text/plain" }).end("metrics failed\n"),
    );
  });
  // A scrape is short: idle connections are not kept long enough to hold up shutdown.
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve(server));
  });
}
