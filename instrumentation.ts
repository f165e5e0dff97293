// Next runs register() once per server process, before it serves (`next start`, `next dev`, and the
// Next inside `npm start`). Under `next start` / `next dev` there is no main.ts: this puts the node-level
// guard (client IP from the socket, bounded bodies, page budget: server/http/guard.ts) in front of
// Next's own request handling, so every way of starting the app has the same guards.
export async function register() {
  // A block under the test, not an early return: Next compiles this file for the Edge runtime too, and
  // only a block it can drop keeps Node's APIs out of that build (and its warnings out of `next dev`).
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { installGuardOnHttpServers } = await import("./server/http/install-guard.ts");
    installGuardOnHttpServers();
    // Background work starts with the server, not during `next build` (no database then). Under
    // `npm start` main.ts has started it already, and this second call does nothing. Under `next start`
    // and `next dev`, Next's own signal handling ends the process: no stop here (docs/architecture.md#background-work).
    if (process.env.NEXT_PHASE !== "phase-production-build") {
      // `npm run dev`: the demo data into an empty database, before any request reads it (server/seed/on-start.ts).
      const { loadDemoBeforeRequests } = await import("./server/seed/on-start.ts");
      loadDemoBeforeRequests();
      // Every background task and the live channel (server/jobs).
      const { startBackground } = await import("./server/jobs/index.ts");
      const { logError } = await import("./server/log/logger.ts");
      startBackground().catch((err) => logError("[jobs] failed to start", err));
      // Kept pages follow their claims' events (server/http/page-regen.ts).
      const { startPageRegen } = await import("./server/http/page-regen.ts");
      startPageRegen();
    }
  }
}
