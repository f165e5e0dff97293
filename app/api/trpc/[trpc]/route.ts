// The web UI's tRPC endpoint: the same appRouter as /api/v1, called by the browser's client
// components. Identity comes from the NextAuth session cookie (server/api/web-context.ts); errors
// carry the contract's `detail` (and `errors`) in their shape, via the router's error formatter.
// The same guards as every way in (docs/security.md#every-way-in): the body is read through the one bounded reader, a
// batch holds at most MAX_BATCH_CALLS calls, and each call is charged one unit of the caller's limit.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "~/server/api/root.ts";
import { createWebContext, enforceWebRateLimits } from "~/server/api/web-context.ts";
import { config } from "~/server/config.ts";
import { TOO_LARGE, tooLargeDetail, withBoundedBody } from "~/server/http/body-limit.ts";
import { freshCookie } from "~/server/http/page-cache.ts";
import { crossSiteRefusal } from "~/server/http/same-origin.ts";
import { logError } from "~/server/log/logger.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const ENDPOINT = "/api/trpc";
export const MAX_BATCH_CALLS = 10;

const refuse = (status: number, detail: string, headers?: HeadersInit) =>
  Response.json({ detail }, { status, headers: { "Cache-Control": "no-store", ...headers } });

/** The number of procedure calls the request asks for (a batch names them comma-separated in the path). */
function callCount(url: URL): number {
  if (url.searchParams.get("batch") !== "1") return 1;
  const path = url.pathname.slice(ENDPOINT.length + 1);
  return path.split(",").length;
}

async function handler(request: Request): Promise<Response> {
  // The session is a cookie: refuse calls that another site's page makes with it (CSRF), by
  // Sec-Fetch-Site and by Origin.
  const cfg = config();
  const crossSite = crossSiteRefusal(request.headers, cfg.NEXTAUTH_URL, cfg.TRUST_PROXY > 0);
  if (crossSite) return refuse(403, crossSite);
  const calls = callCount(new URL(request.url));
  if (calls > MAX_BATCH_CALLS) return refuse(400, `batch: at most ${MAX_BATCH_CALLS} calls per request (got ${calls})`);
  const bounded = await withBoundedBody(request);
  if (bounded === TOO_LARGE) return refuse(413, tooLargeDetail(), { Connection: "close" });
  return fetchRequestHandler({
    endpoint: ENDPOINT,
    req: bounded,
    router: appRouter,
    maxBatchSize: MAX_BATCH_CALLS,
    createContext: async ({ req, info }) => {
      const ctx = await createWebContext(req.headers);
      await enforceWebRateLimits(ctx, info.calls);
      return ctx;
    },
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") logError(`[web-trpc] ${path ?? "?"} failed`, error.cause ?? error);
    },
    responseMeta: ({ type, errors }) => {
      const headers = new Headers({ "Cache-Control": "no-store" });
      // A write: its writer's next page loads render anew instead of coming from the page cache.
      const ttl = config().PAGE_CACHE_SECONDS;
      if (type === "mutation" && errors.length === 0 && ttl > 0) headers.set("Set-Cookie", freshCookie(ttl));
      return { headers };
    },
  });
}

export { handler as GET, handler as POST };
