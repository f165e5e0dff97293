// What crawlers read (docs/features/open-web.md#crawlers): /robots.txt names the sitemap; /sitemap.xml
// is a sitemap index (sitemaps.org 0.9) naming /sitemaps/site.xml (the site's own pages and its
// biggest topics) and one /sitemaps/claims-{n}.xml per SITEMAP_URLS_PER_FILE visible claims, oldest
// first. Every answer is bounded: a file holds at most that many addresses, and the index names one
// file per that many claims (50,000 files, the protocol's own limit, before it would need a second
// index: 500 million claims). Hidden claims are in none of them.
import { sitemapClaims, visibleClaimCount } from "~/server/services/open-web.ts";
import { xmlText } from "./atom.ts";
import { bodyFor, failed, notFound, publicOrigin, visitorCaller } from "./http.ts";

/** Addresses per sitemap file: the protocol allows 50,000; fewer keep each answer near a megabyte. */
export const SITEMAP_URLS_PER_FILE = 10_000;
/** Topics in the site's file. */
const SITEMAP_TOPICS = 100;
/** Pages every visitor sees the same, worth a crawler's visit. */
const SITE_PAGES = ["/", "/discover", "/leaderboard", "/data", "/docs/api", "/docs/standing"];

const XML_HEADERS = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff" };

const xml = (request: Request, body: string) => new Response(bodyFor(request, body), { status: 200, headers: XML_HEADERS });

/** The index's text for `claims` visible claims, `perFile` to a file. */
export function sitemapIndexXml(origin: string, claims: number, perFile = SITEMAP_URLS_PER_FILE): string {
  const files = ["site.xml", ...Array.from({ length: Math.ceil(claims / perFile) }, (_, i) => `claims-${i + 1}.xml`)];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...files.map((f) => `  <sitemap><loc>${xmlText(`${origin}/sitemaps/${f}`)}</loc></sitemap>`),
    "</sitemapindex>",
    "",
  ].join("\n");
}

function urlsetXml(urls: { loc: string; lastmod?: Date }[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((u) => `  <url><loc>${xmlText(u.loc)}</loc>${u.lastmod ? `<lastmod>${new Date(u.lastmod).toISOString()}</lastmod>` : ""}</url>`),
    "</urlset>",
    "",
  ].join("\n");
}

/** Sitemap file `n` (1-based) of visible claims, `perFile` to a file. */
export async function claimsSitemapXml(origin: string, n: number, perFile = SITEMAP_URLS_PER_FILE): Promise<string> {
  const claims = await sitemapClaims(n - 1, perFile);
  return urlsetXml(claims.map((c) => ({ loc: `${origin}/claims/${c.id}`, lastmod: c.updated_at })));
}

/** GET /sitemap.xml */
export async function sitemapIndexResponse(request: Request): Promise<Response> {
  try {
    return xml(request, sitemapIndexXml(publicOrigin(request), await visibleClaimCount()));
  } catch (err) {
    return failed(err, "Sitemap", "[open-web] sitemap index failed");
  }
}

/** GET /sitemaps/{file}: site.xml or claims-{n}.xml; any other name, or a file past the last, is 404. */
export async function sitemapFileResponse(request: Request, file: string): Promise<Response> {
  const origin = publicOrigin(request);
  try {
    if (file === "site.xml") {
      const caller = await visitorCaller(request);
      const { topics } = await caller.discover.topics({ limit: SITEMAP_TOPICS, offset: 0 });
      return xml(request, urlsetXml([...SITE_PAGES.map((p) => ({ loc: `${origin}${p}` })), ...topics.map((t) => ({ loc: `${origin}/topics/${encodeURIComponent(t.tag)}` }))]));
    }
    const match = /^claims-([1-9]\d{0,8})\.xml$/.exec(file);
    if (!match) return notFound("Sitemap");
    const n = Number(match[1]);
    if (n > 1 && (n - 1) * SITEMAP_URLS_PER_FILE >= (await visibleClaimCount())) return notFound("Sitemap");
    return xml(request, await claimsSitemapXml(origin, n));
  } catch (err) {
    return failed(err, "Sitemap", "[open-web] sitemap file failed");
  }
}

/** GET /robots.txt: everything may be crawled but the API, the account's own pages and the embeds; the sitemap's address. */
export function robotsResponse(request: Request): Response {
  const origin = publicOrigin(request);
  const body = [
    "User-agent: *",
    "Disallow: /api/",
    "Disallow: /settings",
    "Disallow: /notifications",
    "Disallow: /bookmarks",
    "Disallow: /following",
    "Disallow: /moderation",
    "Disallow: /consent/",
    "Disallow: /embed/",
    "Allow: /",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(bodyFor(request, body), { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff" } });
}
