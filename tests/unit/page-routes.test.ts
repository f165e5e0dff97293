// server/http/page-routes.ts lists the app's route handlers by hand: it must name every one the app
// has (a missing one would be charged as a page render; an extra one would let renders through).
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isChargedHandler, isPageRender, ROUTE_HANDLERS, routedPath } from "../../server/http/page-routes.ts";

const APP = path.resolve(import.meta.dirname, "../../app");
/** Files Next serves as route handlers of their own (metadata files). */
const METADATA = /^(icon|apple-icon|favicon|opengraph-image|twitter-image|sitemap|robots|manifest)\.\w+$/;

function handlers(dir: string, route: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return entry.name.startsWith("_") ? [] : handlers(path.join(dir, entry.name), `${route}/${entry.name}`);
    if (/^route\.(ts|tsx|js)$/.test(entry.name)) return [route || "/"];
    if (METADATA.test(entry.name)) return [`${route}/${entry.name}`];
    return [];
  });
}

describe("page renders", () => {
  it("ROUTE_HANDLERS names exactly the app's route handlers", () => {
    expect([...ROUTE_HANDLERS].sort()).toEqual(handlers(APP, "").sort());
  });

  it("every method and every path that reaches a page is a render; Next's files and route handlers are not", () => {
    for (const url of ["/", "/topics/x.css", "/favicon.ico", "/api/nope", "/api", "/_next/data/x/y.json", "/claims/a?b=c", "/_next/static/../../claims/x", "/_next/static/%2e%2e/%2E%2E/x", "//api/trpc/x", "/api/trpc/a/b"]) {
      expect(isPageRender(url), url).toBe(true);
    }
    for (const url of ["/_next/static/chunks/a.js", "/_next/image?url=x", "/api/trpc/claims.list?batch=1", "/api/auth/session", "/api/auth/callback/credentials", "/api/v1/claims/x", "/api/live/claims/x", "/auth/complete?redirect_to=/", "/icon.svg"]) {
      expect(isPageRender(url), url).toBe(false);
    }
    expect(routedPath("http://evil.example/topics/x?y")).toBe("/topics/x");
  });

  it("the guard charges NextAuth's endpoints and the route handlers outside /api that do not charge themselves, and no others", () => {
    for (const url of ["/api/auth/session", "/api/auth/callback/github?code=x", "/consent/u1/decision", "/auth/complete?redirect_to=/", "/oauth/protected-resource", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"]) {
      expect(isChargedHandler(url), url).toBe(true);
    }
    // The open web's addresses (docs/features/open-web.md#the-door): charged like pages, and not renders.
    for (const url of ["/claims/x/card.png?v=1", "/claims/x/feed.atom", "/feeds/claims.atom", "/topics/x/feed.atom", "/profiles/x/feed.atom", "/embed/claims/x", "/oembed?url=x", "/robots.txt", "/sitemap.xml", "/sitemaps/claims-1.xml"]) {
      expect(isChargedHandler(url), url).toBe(true);
      expect(isPageRender(url), url).toBe(false);
    }
    for (const url of ["/mcp", "/llms.txt", "/markdown/claims/x", "/icon.svg", "/api/trpc/claims.list", "/api/v1/claims", "/api/live/claims/x", "/", "/claims/x"]) {
      expect(isChargedHandler(url), url).toBe(false);
    }
  });
});
