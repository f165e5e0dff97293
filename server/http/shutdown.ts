// Graceful shutdown of the production server on SIGTERM/SIGINT: stop accepting, let the requests in
// flight finish within a grace period, then release pools and stores and exit. A second signal, or the
// end of the grace period, exits at once. Logging goes through the output guard and never holds it up.
import type { Server } from "node:http";

export interface GracefulShutdownOptions {
  server: Server;
  graceMs: number;
  /** Closes pools and stores once no request is left (bounded by the grace period). */
  release: () => Promise<unknown>;
  log: (line: string) => void;
  /** process.exit unless a test observes it instead. */
  exit?: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
}

/** How often keep-alive connections that just became idle are closed while draining. */
const IDLE_SWEEP_MS = 100;

export function installGracefulShutdown(opts: GracefulShutdownOptions): { shutdown: (reason: string) => void } {
  const { server, graceMs, release, log } = opts;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  let exited = false;

  const exitOnce = (code: number) => {
    if (exited) return;
    exited = true;
    exit(code);
  };

  const shutdown = (reason: string) => {
    if (stopping) {
      log(`> ${reason} again: exiting now`);
      exitOnce(1);
      return;
    }
    stopping = true;
    log(`> ${reason}: closing (up to ${graceMs / 1000} s for requests in flight)`);

    // Unref'd: they never keep the process alive by themselves.
    const deadline = setTimeout(() => {
      log("> grace period over: exiting now");
      server.closeAllConnections();
      exitOnce(1);
    }, graceMs);
    deadline.unref();
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();

    // Requests that still arrive on open keep-alive connections are answered, then their connection closes.
    server.prependListener("request", (_req, res) => {
      if (!res.headersSent) res.setHeader("Connection", "close");
    });
    server.close(() => {
      clearInterval(sweep);
      void release()
        .catch(() => {})
        .finally(() => {
          clearTimeout(deadline);
          exitOnce(0);
        });
    });
    server.closeIdleConnections();
  };

  for (const signal of opts.signals ?? (["SIGTERM", "SIGINT"] as const)) {
    process.on(signal, () => shutdown(signal));
  }
  return { shutdown };
}
