// The web UI's tRPC endpoint, one of the doors (docs/architecture.md#the-door): the same appRouter as
// /api/v1, called by the browser's client components. Identity comes from the NextAuth session cookie
// (server/api/web-context.ts); errors carry the contract's body in their shape (`detail`, `errors`, the
// code in `data.error_code`), via the router's error formatter. The same guards as every way in
// (docs/security.md#every-way-in): a cookie's call from another site is refused, the body is read
// through the one bounded reader, a batch holds at most MAX_BATCH_CALLS calls, and the calls are
// charged at the door (each its cost, the account attempts of those that make one).
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "~/server/api/root.ts";
import { admitWebCalls, createWebContext } from "~/server/api/web-context.ts";
import { config } from "~/server/config.ts";
import { bodyTooLarge, CROSS_SITE, errorAnswer, invalidField, toResponse } from "~/server/door/answers.ts";
import { TOO_LARGE, withBoundedBody } from "~/server/http/body-limit.ts";
import { freshCookie } from "~/server/http/page-cache.ts";
import { fromAnotherSite } from "~/server/http/same-origin.ts";
import { logError } from "~/server/log/logger.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const ENDPOINT = "/api/trpc";
export const MAX_BATCH_CALLS = 10;

/** The number of procedure calls the request asks for (a batch names them comma-separated in the path). */
function callCount(url: URL): number {
  if (url.searchParams.get("batch") !== "1") return 1;
  const path = url.pathname.slice(ENDPOINT.length + 1);
  return path.split(",").length;
}

async function handler(request: Request): Promise<Response> {
  // The session is a cookie: refuse calls that another site's page makes with it (CSRF), by
  // Sec-Fetch-Site and by Origin.
  if (fromAnotherSite(request.headers)) return toResponse(errorAnswer(CROSS_SITE));
  const calls = callCount(new URL(request.url));
  if (calls > MAX_BATCH_CALLS) {
    return toResponse(errorAnswer(invalidField("batch", `at most ${MAX_BATCH_CALLS} calls per request (got ${calls})`, { rule: "too_many", max: MAX_BATCH_CALLS })));
  }
  const bounded = await withBoundedBody(request);
  if (bounded === TOO_LARGE) return toResponse(bodyTooLarge());
  return fetchRequestHandler({
    endpoint: ENDPOINT,
    req: bounded,
    router: appRouter,
    maxBatchSize: MAX_BATCH_CALLS,
    createContext: async ({ req, info }) => {
      const ctx = await createWebContext(req.headers);
      await admitWebCalls(ctx, info.calls);
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
