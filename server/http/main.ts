// The production server: one node:http server in which /api/v1 goes straight to the REST adapter
// (no Next per-request pipeline on the API hot path) and everything else to Next's request handler.
// `npm start` runs it; `npm run dev` uses plain `next dev`, where app/api/v1 mounts the same adapter.
import { createServer } from "node:http";
import next from "next";
import { config, ConfigError } from "../config.ts";
import { closeDb, dbBackend, dbReady } from "../db/client.ts";
import { API_PREFIX } from "../rest/handler.ts";
import { handleNodeRest } from "../rest/node.ts";
import { closeRateLimiter, rateLimiter } from "../rest/limiter.ts";
import { closeCache } from "../cache/index.ts";

async function main() {
  let cfg;
  try {
    cfg = config();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const started = Date.now();
  await dbReady();
  const app = next({ dev: false, dir: process.cwd(), port: cfg.PORT });
  const handleNext = app.getRequestHandler();
  await app.prepare();

  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`)) {
      handleNodeRest(req, res).catch((err) => {
        console.error("[api] unhandled:", err);
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ detail: "Internal server error" }));
      });
      return;
    }
    // Pages and the web UI's tRPC endpoint read the client IP from X-Forwarded-For: unless a trusted
    // proxy sets it, it is the connection's peer, never what the client claims.
    if (!cfg.TRUST_PROXY) req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
    void handleNext(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(cfg.PORT, () => {
    console.log(
      `> Ready on http://localhost:${cfg.PORT} (${dbBackend()}, rate limits: ${rateLimiter().backend}) in ${Date.now() - started} ms`,
    );
  });

  const shutdown = async (signal: string) => {
    console.log(`> ${signal}: closing`);
    server.close();
    await Promise.allSettled([closeDb(), closeRateLimiter(), closeCache()]);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err) => {
  console.error("Failed to start:", err);
  process.exit(1);
});
