// One log line and the HTTP metrics for every request, at the one place every request passes
// (server/http/guard.ts): method, route (a template, never ids or the query string), status, duration
// and a request id, which is also sent back as X-Request-Id. A client or proxy may bring its own id
// (X-Request-Id, e.g. nginx's $request_id) when it is short and plain; otherwise one is made.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { routeLabel, pathOf } from "./route-label.ts";
import { metrics } from "../metrics/index.ts";
import { log } from "../log/logger.ts";

const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  const value = Array.isArray(given) ? given[0] : given;
  return value && ACCEPTABLE_ID.test(value) ? value : randomUUID();
}

/** Starts observing a request; returns its id. The line is written when the response is done or aborted. */
export function observeRequest(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  const started = performance.now();
  const method = req.method ?? "GET";
  if (!res.headersSent) res.setHeader("X-Request-Id", id);
  const m = metrics();
  m.httpInFlight.inc();
  res.once("close", () => {
    m.httpInFlight.dec();
    const seconds = (performance.now() - started) / 1000;
    const route = routeLabel(method, req.url);
    // A response the client did not wait for is logged as 499 (nginx's convention), as it never got a status.
    const status = res.writableFinished ? res.statusCode : 499;
    m.httpRequests.inc({ method, route, status: String(status) });
    m.httpDuration.observe({ method, route }, seconds);
    const fields = {
      request_id: id,
      method,
      route,
      // The path for pages (which route label is just "page"); never the query string.
      ...(route === "page" ? { path: pathOf(req.url).slice(0, 200) } : {}),
      status,
      duration_ms: Math.round(seconds * 10_000) / 10,
    };
    const l = log();
    // Framework assets are many and dull: debug level.
    if (route === "/_next") l.debug(fields, "request");
    else if (status >= 500) l.error(fields, "request");
    else l.info(fields, "request");
  });
  return id;
}
