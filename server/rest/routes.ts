// The REST route table, read once from the procedures' OpenAPI meta. The adapter uses it to tell an
// unknown route (404) from a wrong method (405) before trpc-to-openapi runs, and to find each
// operation's success status.
import type { AnyRouter } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { ProcedureMeta } from "../api/trpc.ts";

export interface RestRoute {
  method: string;
  /** The template as declared, e.g. /claims/{claim_id} */
  path: string;
  pattern: RegExp;
  /** See literalness(). */
  literalness: string;
  procedurePath: string;
  successStatus: 200 | 201 | 202 | 204 | 302;
  /** The procedure's meta (scope, role): what the adapter checks when it answers without the procedure. */
  meta?: ProcedureMeta;
}

export interface RouteTable {
  routes: RestRoute[];
  /** The route for this method and path, or what is wrong: no such path (404) or wrong method (405). */
  match(method: string, path: string): { route: RestRoute } | { status: 404 } | { status: 405; allow: string[] };
}

function templateToRegExp(template: string): RegExp {
  const source = template
    .split("/")
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

/**
 * How literal a template is, segment by segment ("1" literal, "0" parameter): of the templates a path
 * matches, the one with the greater key at the first difference is the path's (OpenAPI: concrete paths
 * are matched before templated ones). Keys of templates that match one path have the same length.
 */
function literalness(template: string): string {
  return template
    .split("/")
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? "0" : "1"))
    .join("");
}

function firstSegment(path: string): string {
  const end = path.indexOf("/", 1);
  return end === -1 ? path : path.slice(0, end);
}

export function buildRouteTable(router: AnyRouter, extra: { method: string; path: string }[] = []): RouteTable {
  const routes: RestRoute[] = [];
  const procedures = router._def.procedures as Record<string, { _def: { meta?: OpenApiMeta<ProcedureMeta> } }>;
  for (const [procedurePath, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta;
    if (!meta?.openapi || meta.openapi.enabled === false) continue;
    routes.push({
      method: meta.openapi.method,
      path: meta.openapi.path,
      pattern: templateToRegExp(meta.openapi.path),
      literalness: literalness(meta.openapi.path),
      procedurePath,
      successStatus: meta.successStatus ?? 200,
      meta,
    });
  }
  for (const e of extra) {
    routes.push({ ...e, pattern: templateToRegExp(e.path), literalness: literalness(e.path), procedurePath: "", successStatus: 200 });
  }
  // Routes by their first segment (all of them start with a literal one): a request tests the few
  // that could match, not the whole table.
  const byFirstSegment = new Map<string, RestRoute[]>();
  for (const r of routes) {
    const first = firstSegment(r.path);
    byFirstSegment.set(first, [...(byFirstSegment.get(first) ?? []), r]);
  }
  return {
    routes,
    match(method, path) {
      const matching = (byFirstSegment.get(firstSegment(path)) ?? []).filter((r) => r.pattern.test(path));
      if (matching.length === 0) return { status: 404 };
      // The path is its most literal template's (/claims/bookmarks, not /claims/{claim_id}), whatever the
      // method: PUT /auth/oauth/exchange is a 405 allowing POST, not a GET of a provider named "exchange".
      const best = matching.reduce((key, r) => (r.literalness > key ? r.literalness : key), "");
      const samePath = matching.filter((r) => r.literalness === best);
      const route = samePath.find((r) => r.method === method);
      if (route) return { route };
      return { status: 405, allow: [...new Set(samePath.map((r) => r.method))] };
    },
  };
}
