// The production server: one node:http server in which /api/v1 goes straight to the REST adapter
// (no Next per-request pipeline on the API hot path) and everything else to Next's request handler.
// `npm start` runs it; `npm run dev` uses plain `next dev`, where app/api/v1 mounts the same adapter.
// First: the libraries' source maps are not kept (server/source-maps.ts).
import "./source-maps.ts";
import { guardProcessOutput, safeWrite } from "./log/safe-output.ts";
import { createServer } from "node:http";
import next from "next";
import { config, ConfigError } from "./config.ts";
import { closeDb, dbBackend, dbReady } from "./db/client.ts";
import { API_PREFIX } from "./rest/handler.ts";
import { handleNodeRest } from "./rest/node.ts";
import { closeRateLimiter, rateLimiter } from "./ratelimit/limiter.ts";
import { closeCache } from "./cache/index.ts";
import { startBackground, stopBackground } from "./jobs/index.ts";
import { guarded } from "./http/guard.ts";
import { startStaticBrotli } from "./http/static-brotli.ts";
import { installGracefulShutdown } from "./http/shutdown.ts";
import { lifecycleLog, logError } from "./log/logger.ts";
import { INTERNAL_ERROR_BODY } from "./errors.ts";
import { startMetricsServer } from "./metrics/server.ts";
import { closeHealthChecks } from "./rest/health.ts";

// Before anything can log: a closed log pipe must never throw into, or loop through, a logger.
guardProcessOutput();

async function main() {
  let cfg;
  try {
    cfg = config();
  } catch (err) {
    if (err instanceof ConfigError) {
      // No logger without a configuration: the message alone, as the operator has to read it.
      safeWrite("stderr", `${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const started = Date.now();
  await dbReady();
  // Every background task and the live channel (server/jobs; JOBS_ENABLED=0: live only).
  await startBackground();
  const app = next({ dev: false, dir: process.cwd(), port: cfg.PORT });
  const handleNext = app.getRequestHandler();
  await app.prepare();

  // Every request passes the node-level guard first (client IP, bounded bodies, page budget).
  const server = createServer((req, res) =>
    guarded(req, res, () => {
      const url = req.url ?? "/";
      if (url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`)) {
        handleNodeRest(req, res).catch((err) => {
          logError("[api] unhandled", err);
          if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
          res.end(INTERNAL_ERROR_BODY);
        });
        return;
      }
      void handleNext(req, res);
    }),
  );
  server.keepAliveTimeout = 65_000;
  const metricsServer = cfg.METRICS_PORT
    ? await startMetricsServer({ port: cfg.METRICS_PORT, host: cfg.METRICS_HOST, token: cfg.METRICS_TOKEN })
    : undefined;
  server.listen(cfg.PORT, () => {
    lifecycleLog().info(
      { port: cfg.PORT, database: dbBackend(), replica: Boolean(cfg.DATABASE_REPLICA_URL), rate_limits: rateLimiter().backend, metrics_port: cfg.METRICS_PORT ?? null },
      `> Ready on http://localhost:${cfg.PORT} (${dbBackend()}, rate limits: ${rateLimiter().backend}) in ${Date.now() - started} ms`,
    );
    // The build's scripts and styles in brotli, each encoded when first asked for (server/http/static-brotli.ts).
    void startStaticBrotli();
  });

  installGracefulShutdown({
    server,
    graceMs: cfg.SHUTDOWN_GRACE_SECONDS * 1000,
    // Requests are done: stop the background work (the rounds and jobs in flight finish) while the
    // database is still open, then close the pools.
    release: async () => {
      await stopBackground().catch((err) => logError("[jobs] stop failed", err));
      await Promise.allSettled([closeDb(), closeRateLimiter(), closeCache(), closeHealthChecks()]);
      metricsServer?.closeAllConnections();
      await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(undefined)));
    },
    log: (line) => lifecycleLog().info(line),
  });
}

main().catch((err) => {
  logError("Failed to start", err);
  process.exit(1);
});
