// The route a request is counted and logged under: the REST route's template for /api/v1
// ("/api/v1/claims/{claim_id}"), a fixed label for the other entry points. Labels must be few (they
// are Prometheus label values), so a path with ids or names in it is never a label of its own.
// The REST adapter registers its matcher when it is built (it lives in another bundle under `next dev`).
import { processSlot } from "../process-singleton.ts";

const restRouteOf = processSlot<(method: string, path: string) => string | undefined>("claims.restRouteOf");

export function registerRestRouteMatcher(match: (method: string, path: string) => string | undefined): void {
  restRouteOf.set(match);
}

export function pathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const q = raw.indexOf("?");
  return q === -1 ? raw : raw.slice(0, q);
}

/**
 * Labels of the REST routes without parameters, by method and path, as matched once: a hot fixed
 * address (the statistics, the lists) is not matched against every route again on each request.
 * Bounded by the routes themselves: only a path equal to its template is kept.
 */
const fixedRestLabels = new Map<string, string>();

export function routeLabel(method: string, url: string | undefined): string {
  const path = pathOf(url);
  if (path === "/api/v1" || path.startsWith("/api/v1/")) {
    const known = fixedRestLabels.get(`${method} ${path}`);
    if (known !== undefined) return known;
    let inner = path.slice("/api/v1".length) || "/";
    if (inner.length > 1 && inner.endsWith("/")) inner = inner.slice(0, -1);
    const template = restRouteOf.get()?.(method === "HEAD" ? "GET" : method, inner);
    if (template === undefined) return "/api/v1 (no route)";
    const label = `/api/v1${template}`;
    if (template === inner && path === label) fixedRestLabels.set(`${method} ${path}`, label);
    return label;
  }
  if (path.startsWith("/api/trpc")) return "/api/trpc";
  if (path.startsWith("/api/auth")) return "/api/auth";
  if (path.startsWith("/_next/") || path.startsWith("/__nextjs")) return "/_next";
  if (path.startsWith("/api/")) return "/api (other)";
  return "page";
}
