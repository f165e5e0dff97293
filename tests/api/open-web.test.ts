// Claims on the open web over real HTTP (docs/features/open-web.md): a node:http server
// mounting the app's route handlers as Next routes to them — the claim's picture, the four Atom feeds,
// the embed and oEmbed, the sitemap and robots.txt. The picture decodes as a 1200×630 PNG; every feed is
// well-formed XML with RFC 4287's required elements; oEmbed answers `rich` with the embed's iframe; the
// embed says the status in the words the API's consensus gives the page; the sitemap lists visible
// claims only, a file at most its bound; a hidden claim is found by none of them.
// tests/smoke/open-web.test.ts checks the same addresses, and the pages' heads, on the built server.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as cardGet } from "../../app/claims/[id]/card.png/route.ts";
import { GET as claimFeedGet } from "../../app/claims/[id]/feed.atom/route.ts";
import { GET as embedGet } from "../../app/embed/claims/[id]/route.ts";
import { GET as siteFeedGet } from "../../app/feeds/claims.atom/route.ts";
import { GET as oembedGet } from "../../app/oembed/route.ts";
import { GET as profileFeedGet } from "../../app/profiles/[idOrUsername]/feed.atom/route.ts";
import { GET as robotsGet } from "../../app/robots.txt/route.ts";
import { GET as sitemapGet } from "../../app/sitemap.xml/route.ts";
import { GET as sitemapFileGet } from "../../app/sitemaps/[file]/route.ts";
import { GET as topicFeedGet } from "../../app/topics/[tag]/feed.atom/route.ts";
import { consensusHeadline } from "../../app/_lib/consensus-words.ts";
import { claimsSitemapXml, sitemapIndexXml, SITEMAP_URLS_PER_FILE } from "../../app/_lib/open-web/crawl.ts";
import { claimJsonLd } from "../../app/_lib/open-web/json-ld.ts";
import { cardPath } from "../../app/_lib/open-web/card-version.ts";
import { grantAdmin } from "../../server/services/moderation.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { childrenNamed, childText, parseXml, type XmlElement } from "../helpers/xml.ts";

/** The public origin the handlers name (tests/setup.ts's NEXTAUTH_URL). */
const ORIGIN = new URL(process.env.NEXTAUTH_URL!).origin;

let api: TestApi;
let server: Server;
let base: string;
let author: TestAgent;
let admin: TestAgent;
const tag = `openweb${Date.now().toString(36)}`;
let claim: any;
let hidden: any;
let argumentChild: any;

type Handler = (request: Request, ctx: { params: Promise<any> }) => Promise<Response> | Response;
const ROUTES: [RegExp, Handler, string[]][] = [
  [/^\/claims\/([^/]+)\/card\.png$/, cardGet, ["id"]],
  [/^\/claims\/([^/]+)\/feed\.atom$/, claimFeedGet, ["id"]],
  [/^\/embed\/claims\/([^/]+)$/, embedGet, ["id"]],
  [/^\/feeds\/claims\.atom$/, siteFeedGet as Handler, []],
  [/^\/oembed$/, oembedGet as Handler, []],
  [/^\/profiles\/([^/]+)\/feed\.atom$/, profileFeedGet, ["idOrUsername"]],
  [/^\/robots\.txt$/, robotsGet as Handler, []],
  [/^\/sitemap\.xml$/, sitemapGet as Handler, []],
  [/^\/sitemaps\/([^/]+)$/, sitemapFileGet, ["file"]],
  [/^\/topics\/([^/]+)\/feed\.atom$/, topicFeedGet, ["tag"]],
];

/** The route handlers, as Next routes to them (its path segments decoded). */
async function route(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  for (const [pattern, handler, names] of ROUTES) {
    const m = pattern.exec(pathname);
    if (m) return handler(request, { params: Promise.resolve(Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]))) });
  }
  return new Response("no route", { status: 599 });
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

beforeAll(async () => {
  api = await startApi();
  const voters = await Promise.all(Array.from({ length: 6 }, () => createAgent(api)));
  [author, admin] = await Promise.all([createAgent(api), createAgent(api)]);
  expect((await grantAdmin(admin.username))?.role).toBe("admin");
  const made = await api.post("/claims", { statement: `Tap water in Vienna comes from alpine springs & "wells" <${tag}>.`, tags: [tag] }, { token: author.token });
  expect(made.status, made.text).toBe(201);
  for (const v of voters) expect((await api.post(`/claims/${made.body.id}/vote`, { value: 0.95 }, { token: v.token })).status).toBe(200);
  const ev = await api.post(`/claims/${made.body.id}/evidence`, { position: "supports", content_type: "link", content: "https://example.org/vienna-water" }, { token: voters[0].token });
  expect(ev.status, ev.text).toBe(201);
  const child = await api.post("/claims", { statement: `The springs of the Rax feed the first Vienna water main ${tag}.` }, { token: author.token });
  argumentChild = child.body;
  const arg = await api.post(`/claims/${made.body.id}/arguments`, { stance: "supports", child_claim_id: child.body.id }, { token: author.token });
  expect(arg.status, arg.text).toBe(201);
  const secret = await api.post("/claims", { statement: `A claim the moderators hid, about ${tag} spam.`, tags: [tag] }, { token: author.token });
  expect((await api.post(`/moderation/claim/${secret.body.id}/hide`, { reason: "spam" }, { token: admin.token })).status).toBe(204);
  hidden = secret.body;
  claim = (await api.get(`/claims/${made.body.id}`)).body;

  server = createServer(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const answer = await route(new Request(new URL(req.url!, base), { method: req.method, headers }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(answer.body ? Buffer.from(await answer.arrayBuffer()) : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await api?.close();
});

/** Width and height from a PNG's IHDR chunk (after the 8-byte signature: length, "IHDR", width, height). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** Parses an Atom feed and checks RFC 4287's required elements (§4.1.1, §4.1.2); returns its entries. */
async function atom(path: string, self = path): Promise<{ feed: XmlElement; entries: XmlElement[] }> {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
  const feed = parseXml(await res.text());
  expect(feed.name).toBe("feed");
  expect(feed.attrs.xmlns).toBe("http://www.w3.org/2005/Atom");
  for (const name of ["id", "title", "updated"]) expect(childrenNamed(feed, name), `feed ${name}`).toHaveLength(1);
  expect(childText(feed, "updated")).toMatch(RFC3339);
  expect(childText(feed, "title")!.length).toBeGreaterThan(0);
  expect(() => new URL(childText(feed, "id")!)).not.toThrow();
  const links = childrenNamed(feed, "link");
  expect(links.filter((l) => l.attrs.rel === "self")).toHaveLength(1);
  expect(links.find((l) => l.attrs.rel === "self")!.attrs.href).toBe(`${ORIGIN}${self}`);
  expect(links.filter((l) => l.attrs.rel === "alternate" && l.attrs.type === "text/html")).toHaveLength(1);
  const entries = childrenNamed(feed, "entry");
  // §4.1.1: an atom:author on the feed, or on every entry.
  const feedAuthor = childrenNamed(feed, "author")[0];
  for (const entry of entries) {
    for (const name of ["id", "title", "updated"]) expect(childrenNamed(entry, name), `entry ${name}`).toHaveLength(1);
    expect(childText(entry, "updated")).toMatch(RFC3339);
    expect(() => new URL(childText(entry, "id")!)).not.toThrow();
    // §4.1.2: an entry without content has an alternate link.
    expect(childrenNamed(entry, "link").some((l) => (l.attrs.rel ?? "alternate") === "alternate" && l.attrs.href.startsWith(ORIGIN))).toBe(true);
    expect(feedAuthor ?? childrenNamed(entry, "author")[0]).toBeDefined();
  }
  expect(childText(feedAuthor, "name")).toBe("Claims");
  // Entry ids are unique within the feed (§4.2.6).
  expect(new Set(entries.map((e) => childText(e, "id"))).size).toBe(entries.length);
  return { feed, entries };
}

const linksOf = (entries: XmlElement[]) => entries.flatMap((e) => childrenNamed(e, "link").map((l) => l.attrs.href));

describe("the claim's picture", () => {
  it("is a PNG of 1200×630, cached by its version, and 304 when the client has it", async () => {
    const res = await get(`/claims/${claim.id}/card.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(pngSize(Buffer.from(await res.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
    const etag = res.headers.get("etag")!;
    // The page's og:image names the same version as the picture's ETag.
    expect(cardPath(claim)).toBe(`/claims/${claim.id}/card.png?v=${etag.replace(/"/g, "")}`);
    expect((await get(`/claims/${claim.id}/card.png`, { "If-None-Match": etag })).status).toBe(304);
  }, 60_000);

  it("is a 404 for a hidden claim, an unknown one and an id that names nothing", async () => {
    for (const id of [hidden.id, "00000000-0000-4000-8000-000000000000", "not-a-claim"]) {
      const res = await get(`/claims/${id}/card.png`);
      expect(res.status, id).toBe(404);
      expect(await res.text()).toBe("Claim not found\n");
    }
  });

  it("gets a new address when what it shows changes (a new vote)", async () => {
    const before = cardPath(claim);
    const voter = await createAgent(api);
    expect((await api.post(`/claims/${claim.id}/vote`, { value: 0.1 }, { token: voter.token })).status).toBe(200);
    const after = cardPath((await api.get(`/claims/${claim.id}`)).body);
    expect(after).not.toBe(before);
    expect((await get(`/claims/${claim.id}/card.png`, { "If-None-Match": `"${before.split("v=")[1]}"` })).status).toBe(200);
    claim = (await api.get(`/claims/${claim.id}`)).body;
  }, 60_000);
});

describe("structured data", () => {
  it("is a Claim, and a ClaimReview by the service while the claim is at consensus", () => {
    expect(claim.consensus.status).toBe("consensus_true");
    const data = JSON.parse(JSON.stringify(claimJsonLd(claim, ORIGIN)));
    expect(data["@context"]).toBe("https://schema.org");
    const [c, review] = data["@graph"];
    expect(c).toMatchObject({ "@type": "Claim", text: claim.statement, url: `${ORIGIN}/claims/${claim.id}`, datePublished: claim.created_at });
    expect(c.author).toMatchObject({ "@type": "Person", name: claim.author.display_name || claim.author.username, url: `${ORIGIN}/profiles/${author.username}` });
    expect(review).toMatchObject({ "@type": "ClaimReview", claimReviewed: claim.statement, author: { "@type": "Organization", name: "Claims" } });
    expect(review.reviewRating).toMatchObject({ "@type": "Rating", ratingValue: 5, bestRating: 5, worstRating: 1, alternateName: "At consensus: true" });
    // Not at consensus: the Claim alone.
    const open = { ...claim, consensus: { ...claim.consensus, status: "open" } };
    expect(claimJsonLd(open, ORIGIN)["@graph"]).toHaveLength(1);
  });
});

describe("Atom feeds", () => {
  it("the site's newest claims: valid Atom, the visible claim in it, the hidden one nowhere", async () => {
    const { entries } = await atom("/feeds/claims.atom");
    expect(linksOf(entries)).toContain(`${ORIGIN}/claims/${claim.id}`);
    expect(linksOf(entries)).not.toContain(`${ORIGIN}/claims/${hidden.id}`);
    const entry = entries.find((e) => childText(e, "id") === `urn:uuid:${claim.id}`)!;
    // The statement as written (escaped in the XML, read back whole) and the status in the page's words.
    expect(childText(entry, "title")).toBe(claim.statement);
    expect(childText(entry, "summary")).toContain(consensusHeadline({ ...claim.consensus, votes: claim.vote_count }));
    expect(childrenNamed(entry, "category").map((c) => c.attrs.term)).toEqual([tag]);
  });

  it("a topic's: its claims without the hidden one; a topic nobody used is a 404", async () => {
    const { entries, feed } = await atom(`/topics/${tag}/feed.atom`);
    expect(linksOf(entries)).toEqual([`${ORIGIN}/claims/${claim.id}`]);
    expect(childrenNamed(feed, "link").find((l) => l.attrs.rel === "alternate")!.attrs.href).toBe(`${ORIGIN}/topics/${tag}`);
    expect((await get("/topics/nobody-tagged-this/feed.atom")).status).toBe(404);
  });

  it("a person's, by username or id: their visible claims only; an unknown person is a 404", async () => {
    for (const who of [author.username, author.id]) {
      // Its self link is the canonical one, by username.
      const { entries } = await atom(`/profiles/${who}/feed.atom`, `/profiles/${author.username}/feed.atom`);
      expect(linksOf(entries).sort()).toEqual([`${ORIGIN}/claims/${claim.id}`, `${ORIGIN}/claims/${argumentChild.id}`].sort());
    }
    expect((await get("/profiles/nobody_by_this_name/feed.atom")).status).toBe(404);
  });

  it("a claim's: submitted, its status, its evidence and its argument, newest first; a hidden claim's is a 404", async () => {
    const { entries } = await atom(`/claims/${claim.id}/feed.atom`);
    const titles = entries.map((e) => childText(e, "title")!);
    expect(titles).toContain(`Submitted: ${claim.statement}`);
    expect(titles.some((t) => t.startsWith(`${consensusHeadline({ ...claim.consensus, votes: claim.vote_count })}`))).toBe(true);
    expect(titles).toContain("Evidence for: https://example.org/vienna-water");
    expect(titles).toContain(`Argument for: ${argumentChild.statement}`);
    const updated = entries.map((e) => Date.parse(childText(e, "updated")!));
    expect(updated).toEqual([...updated].sort((a, b) => b - a));
    expect((await get(`/claims/${hidden.id}/feed.atom`)).status).toBe(404);
  });
});

describe("embeds", () => {
  it("oEmbed answers `rich` with the embed's iframe for a claim page's address", async () => {
    const url = `${ORIGIN}/claims/${claim.id}`;
    const res = await get(`/oembed?url=${encodeURIComponent(url)}&format=json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body).toMatchObject({ version: "1.0", type: "rich", provider_name: "Claims", title: claim.statement, width: 560, height: 260 });
    expect(body.html).toMatch(new RegExp(`^<iframe src="${ORIGIN}/embed/claims/${claim.id}" width="560" height="260"`));
    expect(body.thumbnail_url).toBe(`${ORIGIN}${cardPath(claim)}`);
    // maxwidth/maxheight bound the size.
    const small = await (await get(`/oembed?url=${encodeURIComponent(url)}&maxwidth=300&maxheight=200`)).json();
    expect([small.width, small.height]).toEqual([300, 200]);
  });

  it("oEmbed refuses a hidden claim, another site's address and a format it does not offer", async () => {
    expect((await get(`/oembed?url=${encodeURIComponent(`${ORIGIN}/claims/${hidden.id}`)}`)).status).toBe(404);
    expect((await get(`/oembed?url=${encodeURIComponent(`https://elsewhere.example/claims/${claim.id}`)}`)).status).toBe(404);
    const xml = await get(`/oembed?url=${encodeURIComponent(`${ORIGIN}/claims/${claim.id}`)}&format=xml`);
    expect(xml.status).toBe(400);
    expect((await xml.json()).code).toBe("validation_failed");
    expect((await get("/oembed")).status).toBe(400);
  });

  it("the embed is a small page with the statement and the API's status words; a hidden claim's is a 404", async () => {
    const res = await get(`/embed/claims/${claim.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain(claim.statement.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"));
    expect(html).not.toContain(`<${tag}>`);
    expect(html).toContain(`data-testid="embed-status">${consensusHeadline({ ...claim.consensus, votes: claim.vote_count })}<`);
    expect(html).toContain(`new EventSource("/api/live/claims/${claim.id}")`);
    // No site chrome: no header, navigation or footer.
    expect(html).not.toMatch(/<header|<nav|<footer/);
    expect((await get(`/embed/claims/${hidden.id}`)).status).toBe(404);
  });
});

describe("crawlers", () => {
  it("robots.txt names the sitemap", async () => {
    const res = await get("/robots.txt");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`\nSitemap: ${ORIGIN}/sitemap.xml\n`);
  });

  it("the sitemap index names the site's file and the claims' files; a file lists visible claims only", async () => {
    const index = parseXml(await (await get("/sitemap.xml")).text());
    expect(index.name).toBe("sitemapindex");
    const files = childrenNamed(index, "sitemap").map((s) => childText(s, "loc"));
    expect(files).toEqual([`${ORIGIN}/sitemaps/site.xml`, `${ORIGIN}/sitemaps/claims-1.xml`]);
    const urls = (await get("/sitemaps/claims-1.xml").then((r) => r.text()).then(parseXml)).children.map((u) => childText(u, "loc"));
    expect(urls).toContain(`${ORIGIN}/claims/${claim.id}`);
    expect(urls).toContain(`${ORIGIN}/claims/${argumentChild.id}`);
    expect(urls).not.toContain(`${ORIGIN}/claims/${hidden.id}`);
    const site = (await get("/sitemaps/site.xml").then((r) => r.text()).then(parseXml)).children.map((u) => childText(u, "loc"));
    expect(site).toContain(`${ORIGIN}/`);
    expect(site).toContain(`${ORIGIN}/topics/${tag}`);
    for (const missing of ["claims-2.xml", "claims-0.xml", "other.xml"]) expect((await get(`/sitemaps/${missing}`)).status, missing).toBe(404);
  });

  it("is paged: one file per SITEMAP_URLS_PER_FILE claims, each bounded, together every visible claim once", async () => {
    expect(SITEMAP_URLS_PER_FILE).toBeLessThanOrEqual(50_000);
    const visible = (await get("/sitemaps/claims-1.xml").then((r) => r.text()).then(parseXml)).children.length;
    expect(visible).toBeGreaterThanOrEqual(2);
    // With one claim to a file: as many files as visible claims, each with one.
    const index = parseXml(sitemapIndexXml(ORIGIN, visible, 1));
    expect(childrenNamed(index, "sitemap")).toHaveLength(visible + 1);
    const seen: string[] = [];
    for (let n = 1; n <= visible; n++) {
      const file = parseXml(await claimsSitemapXml(ORIGIN, n, 1));
      expect(file.children).toHaveLength(1);
      seen.push(childText(file.children[0], "loc")!);
    }
    expect(new Set(seen).size).toBe(visible);
    expect(seen).not.toContain(`${ORIGIN}/claims/${hidden.id}`);
    expect(parseXml(await claimsSitemapXml(ORIGIN, visible + 1, 1)).children).toHaveLength(0);
  });
});
