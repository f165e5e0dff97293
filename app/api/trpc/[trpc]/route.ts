// The web UI's tRPC endpoint: the same appRouter as /api/v1, called by the browser's client
// components. Identity comes from the NextAuth session cookie (server/api/web-context.ts); errors
// carry the contract's `detail` (and `errors`) in their shape, via the router's error formatter.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "~/server/api/root.ts";
import { createWebContext, enforceWebRateLimits } from "~/server/api/web-context.ts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

function handler(request: Request): Promise<Response> {
  // The session is a cookie: refuse calls that another site's page makes with it (CSRF).
  if (request.headers.get("sec-fetch-site") === "cross-site") {
    return Promise.resolve(Response.json({ detail: "Cross-site request refused" }, { status: 403 }));
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: async ({ req, info }) => {
      const ctx = await createWebContext(req.headers);
      await enforceWebRateLimits(ctx, info.calls);
      return ctx;
    },
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[web-trpc] ${path ?? "?"} failed:`, error.cause ?? error);
    },
    responseMeta: () => ({ headers: new Headers({ "Cache-Control": "no-store" }) }),
  });
}

export { handler as GET, handler as POST };
