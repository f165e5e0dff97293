// Which requests make Next render a page. Next answers a few things without rendering: its static files
// (/_next/static), its image optimizer, and the app's route handlers (app/**/route.ts and metadata
// files such as app/icon.svg). Every other request renders a page whatever its method or however its
// path ends: PUT/PATCH/DELETE render the page like GET, `/topics/x.css` renders the topic "x.css", and
// an unknown path (`/favicon.ico`, `/api/nope`, `/_next/data/…`) renders the not-found page. So a page
// render is "anything that is not one of those", never "a GET of something that looks like a page"
// (docs/security.md, "Limits").

/** The app's route handlers, as Next names them ([x]: one segment, [...x]: one or more). */
export const ROUTE_HANDLERS = [
  "/api/auth/[...nextauth]",
  "/api/live/claims/[id]",
  "/api/trpc/[trpc]",
  "/api/v1/[...path]",
  "/auth/complete",
  "/claims/[id]/card.png",
  "/claims/[id]/feed.atom",
  "/consent/[uid]/decision",
  "/data.json",
  "/data/[snapshot]/[file]",
  "/data/key",
  "/digest/unsubscribe",
  "/embed/claims/[id]",
  "/feeds/claims.atom",
  "/icon.svg",
  "/llms.txt",
  "/markdown/claims/[id]",
  "/mcp",
  "/oauth/authorization-server",
  "/oauth/protected-resource",
  "/oembed",
  "/profiles/[idOrUsername]/feed.atom",
  "/robots.txt",
  "/sitemap.xml",
  "/sitemaps/[file]",
  "/topics/[tag]/feed.atom",
] as const;

/**
 * Route handlers outside /api that charge each request themselves, or that cost nothing: the MCP
 * endpoint (one unit per call and per tool call), the agents' site (its tRPC calls are charged), and
 * the icon (a file of the build). Every other route handler outside /api is charged by the node-level
 * guard to the page budget (docs/security.md#limits-what-each-protects-and-how-it-is-keyed).
 */
export const SELF_CHARGING_HANDLERS = ["/mcp", "/llms.txt", "/markdown/claims/[id]", "/icon.svg"] as const satisfies readonly (typeof ROUTE_HANDLERS)[number][];

/** Paths next.config.mjs rewrites onto a route handler before routing (what the client sends). */
const REWRITTEN_TO_HANDLERS = ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server", "/.well-known/claims-data-key"] as const;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function routePattern(route: string): string {
  return route
    .split("/")
    .map((segment) => (/^\[\.\.\.\w+\]$/.test(segment) ? "[^/]+(?:/[^/]+)*" : /^\[\w+\]$/.test(segment) ? "[^/]+" : escapeRegExp(segment)))
    .join("/");
}

/** Next's own files: static assets (a miss there is a short 404, not a page) and the image optimizer. */
const FRAMEWORK = "/_next/static/[^/]+(?:/[^/]+)*|/_next/image";

const NOT_A_RENDER = new RegExp(`^(?:${FRAMEWORK}|${[...ROUTE_HANDLERS, ...REWRITTEN_TO_HANDLERS].map(routePattern).join("|")})/?$`);

/**
 * The path as Next routes it: dot segments resolved ("/_next/static/../../claims/x" is a claim page,
 * "%2e%2e" included), without the query.
 */
export function routedPath(url: string | undefined): string {
  try {
    const raw = url ?? "/";
    // Origin-form is read as a path ("//x/y" is not a host); absolute-form as the URL it is.
    return (raw.startsWith("/") ? new URL(`http://localhost${raw}`) : new URL(raw, "http://localhost")).pathname;
  } catch {
    return url ?? "/";
  }
}

const routeRegExp = (routes: readonly string[]) => new RegExp(`^(?:${routes.map(routePattern).join("|")})/?$`);

/**
 * NextAuth's endpoints (session, csrf, providers, sign-in, callbacks, sign-out) charge nothing of their
 * own beyond the password attempts: they are a browser moving between pages, like the handlers outside /api.
 */
const NEXTAUTH_HANDLER = "/api/auth/[...nextauth]";

/** Route handlers the guard charges: outside /api (whose handlers charge for themselves) and NextAuth's, not self-charging. */
const CHARGED_HANDLER = routeRegExp([
  NEXTAUTH_HANDLER,
  ...ROUTE_HANDLERS.filter((r) => !r.startsWith("/api/") && !(SELF_CHARGING_HANDLERS as readonly string[]).includes(r)),
  ...REWRITTEN_TO_HANDLERS,
]);

/**
 * Whether this request reaches a route handler outside /api that does not charge itself (a form's POST,
 * a redirect, OAuth metadata): the guard charges it one unit of the page budget.
 */
export function isChargedHandler(url: string | undefined): boolean {
  return CHARGED_HANDLER.test(routedPath(url));
}

/** Whether Next answers this request by rendering a page (and so it is charged to the page budget). */
export function isPageRender(url: string | undefined): boolean {
  return !NOT_A_RENDER.test(routedPath(url));
}
