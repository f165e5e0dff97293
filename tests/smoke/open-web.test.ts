// Claims on the open web on the built server (`npm start`), through Next's routing, the pages' heads and
// the node-level guard (docs/features/open-web.md): a claim page's OpenGraph and Twitter card tags,
// canonical link, feed and oEmbed links, and its JSON-LD (Claim, and ClaimReview at consensus); its
// og:image decodes as a 1200×630 PNG; profile and topic pages link their feeds; the embed alone may be
// framed; the feeds, oEmbed, robots.txt and the sitemap answer through the routing, a hidden claim in
// none of them; and every one of these addresses spends the page budget and is refused at the door
// like a page (429 once spent, 413 for a body over the limit).
import { rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";
import { inOneBucket } from "../helpers/time.ts";
import { dataDirWithAdmin } from "../helpers/seeded-admin.ts";
import { childrenNamed, childText, parseXml } from "../helpers/xml.ts";

const PAGE_LIMIT = 40;
/** The public origin the server names (tests/setup.ts's NEXTAUTH_URL, passed on to it). */
const ORIGIN = new URL(process.env.NEXTAUTH_URL!).origin;
const ADMIN = { email: `openweb-admin-${Date.now()}@example.org`, password: "Openweb-admin-passw0rd" };
const dataDir = dataDirWithAdmin(ADMIN.email, ADMIN.password);

let server: BuiltServer;
let claim: { id: string; statement: string };
let hiddenId: string;
let author: { id: string; username: string };
const tag = `smokeweb${Date.now().toString(36)}`;

let ipCounter = 0;
const freshIp = () => `10.${(process.pid >> 8) % 250}.${process.pid % 250}.${++ipCounter}`;
/** One trusted proxy appended the client's address: each step its own client, so budgets do not mix. */
const from = (ip = freshIp()) => ({ "x-forwarded-for": `198.18.0.1, ${ip}` });

async function call(method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${server.base}${path}`, {
    method,
    redirect: "manual",
    headers: {
      ...from(),
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
}

async function account(): Promise<{ id: string; username: string; token: string }> {
  const username = `ow${process.pid % 10000}_${++ipCounter}`;
  const email = `${username}@example.test`;
  const reg = await call("POST", "/api/v1/auth/register", { body: { email, password: "Password123", username } });
  expect(reg.status, await reg.clone().text()).toBe(201);
  const login = await call("POST", "/api/v1/auth/login", { body: { email, password: "Password123" } });
  expect(login.status).toBe(200);
  return { ...((await reg.json()) as { id: string; username: string }), token: ((await login.json()) as { access_token: string }).access_token };
}

beforeAll(async () => {
  server = await startBuiltServer({ DATA_DIR: dataDir, TRUST_PROXY: "1", RATE_LIMIT_SCALE: "1", PAGE_RATE_LIMIT: String(PAGE_LIMIT), LOG_LEVEL: "error" });
  const writer = await account();
  author = writer;
  const made = await call("POST", "/api/v1/claims", { token: writer.token, body: { statement: `Honey found in Egyptian tombs was still edible (${tag}).`, tags: [tag] } });
  expect(made.status).toBe(201);
  claim = (await made.json()) as typeof claim;
  for (let i = 0; i < 5; i++) {
    const voter = await account();
    expect((await call("POST", `/api/v1/claims/${claim.id}/vote`, { token: voter.token, body: { value: 0.95 } })).status).toBe(200);
  }
  const secret = await call("POST", "/api/v1/claims", { token: writer.token, body: { statement: `A hidden claim about ${tag} nobody should find.`, tags: [tag] } });
  hiddenId = ((await secret.json()) as { id: string }).id;
  const admin = await call("POST", "/api/v1/auth/login", { body: ADMIN });
  expect(admin.status).toBe(200);
  const { access_token } = (await admin.json()) as { access_token: string };
  expect((await call("POST", `/api/v1/moderation/claim/${hiddenId}/hide`, { token: access_token, body: { reason: "spam" } })).status).toBe(204);
}, 300_000);

afterAll(() => {
  server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The content of `<meta property|name="key">` and the href of `<link rel="rel" [type]>` in a page's HTML. */
const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key.replace(/[.:+]/g, "\\$&")}" content="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, "&");
const link = (html: string, rel: string, type?: string) =>
  [...html.matchAll(/<link [^>]*>/g)]
    .map((m) => m[0])
    .filter((l) => l.includes(`rel="${rel}"`) && (!type || l.includes(`type="${type}"`)))
    .map((l) => /href="([^"]*)"/.exec(l)![1].replace(/&amp;/g, "&"));

function pngSize(png: Buffer) {
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe("a claim page's head", () => {
  it("carries OpenGraph and Twitter cards whose picture decodes at 1200×630, a canonical link, its feed and oEmbed", async () => {
    const res = await call("GET", `/claims/${claim.id}`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(meta(html, "og:type")).toBe("article");
    expect(meta(html, "og:title")).toBe(claim.statement);
    expect(meta(html, "og:description")).toMatch(/^At consensus: true · \d+% true \(5 counted votes\)$/);
    expect(meta(html, "og:site_name")).toBe("Claims");
    expect(meta(html, "og:url")).toBe(`${ORIGIN}/claims/${claim.id}`);
    expect(meta(html, "twitter:card")).toBe("summary_large_image");
    const image = meta(html, "og:image")!;
    expect(image).toMatch(new RegExp(`^${ORIGIN}/claims/${claim.id}/card\\.png\\?v=[\\w-]+$`));
    expect(meta(html, "twitter:image")).toBe(image);
    expect([meta(html, "og:image:width"), meta(html, "og:image:height")]).toEqual(["1200", "630"]);
    expect(link(html, "canonical")).toEqual([`${ORIGIN}/claims/${claim.id}`]);
    expect(link(html, "alternate", "application/atom+xml")).toContain(`${ORIGIN}/claims/${claim.id}/feed.atom`);
    expect(link(html, "alternate", "application/json+oembed")).toEqual([`${ORIGIN}/oembed?url=${encodeURIComponent(`${ORIGIN}/claims/${claim.id}`)}&format=json`]);
    expect(link(html, "alternate", "text/markdown")).toEqual([`${ORIGIN}/claims/${claim.id}.md`]);

    const png = await call("GET", new URL(image).pathname + new URL(image).search);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(pngSize(Buffer.from(await png.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
  }, 60_000);

  it("carries JSON-LD: a Claim, and a ClaimReview by the service at consensus", async () => {
    const html = await (await call("GET", `/claims/${claim.id}`)).text();
    const scripts = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) => JSON.parse(m[1]));
    expect(scripts).toHaveLength(1);
    const graph = scripts[0]["@graph"] as Record<string, any>[];
    expect(scripts[0]["@context"]).toBe("https://schema.org");
    expect(graph.map((n) => n["@type"])).toEqual(["Claim", "ClaimReview"]);
    expect(graph[0]).toMatchObject({ text: claim.statement, url: `${ORIGIN}/claims/${claim.id}` });
    expect(graph[1].reviewRating).toMatchObject({ ratingValue: 5, alternateName: "At consensus: true" });
    expect(graph[1].author).toMatchObject({ "@type": "Organization", name: "Claims" });
  });

  it("cannot be framed; the embed can, and is a small card of its own", async () => {
    const page = await call("GET", `/claims/${claim.id}`);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const embed = await call("GET", `/embed/claims/${claim.id}`);
    expect(embed.status).toBe(200);
    const csp = embed.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors *");
    expect(csp).not.toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(embed.headers.get("x-frame-options")).toBeNull();
    const html = await embed.text();
    expect(html).toContain('data-testid="embed-status">At consensus: true<');
    expect(html).not.toMatch(/<header|<nav|<footer/);
    expect((await call("GET", `/embed/claims/${hiddenId}`)).status).toBe(404);
    // Only the embed: the rest of the site keeps its policy.
    expect((await call("GET", "/oembed?url=x")).headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("profile and topic pages", () => {
  it("link their feeds and carry their cards", async () => {
    const profile = await (await call("GET", `/profiles/${author.username}`)).text();
    expect(meta(profile, "og:type")).toBe("profile");
    expect(link(profile, "canonical")).toEqual([`${ORIGIN}/profiles/${author.username}`]);
    expect(link(profile, "alternate", "application/atom+xml")).toContain(`${ORIGIN}/profiles/${author.username}/feed.atom`);
    const topic = await (await call("GET", `/topics/${tag}`)).text();
    expect(link(topic, "alternate", "application/atom+xml")).toContain(`${ORIGIN}/topics/${tag}/feed.atom`);
    // The site's feed, from the root layout.
    expect(link(topic, "alternate", "application/atom+xml")).toContain(`${ORIGIN}/feeds/claims.atom`);
  });
});

describe("feeds, oEmbed and crawlers through Next's routing", () => {
  it("every feed is Atom with the visible claim and without the hidden one", async () => {
    for (const path of ["/feeds/claims.atom", `/topics/${tag}/feed.atom`, `/profiles/${author.username}/feed.atom`, `/profiles/${author.id}/feed.atom`]) {
      const res = await call("GET", path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
      const feed = parseXml(await res.text());
      for (const name of ["id", "title", "updated"]) expect(childText(feed, name), `${path} ${name}`).toBeTruthy();
      const hrefs = childrenNamed(feed, "entry").flatMap((e) => childrenNamed(e, "link").map((l) => l.attrs.href));
      expect(hrefs, path).toContain(`${ORIGIN}/claims/${claim.id}`);
      expect(hrefs.join(" "), path).not.toContain(hiddenId);
    }
    const own = parseXml(await (await call("GET", `/claims/${claim.id}/feed.atom`)).text());
    expect(childrenNamed(own, "entry").map((e) => childText(e, "title"))).toContain(`Submitted: ${claim.statement}`);
    expect((await call("GET", `/claims/${hiddenId}/feed.atom`)).status).toBe(404);
  });

  it("oEmbed answers for a claim page's address", async () => {
    const res = await call("GET", `/oembed?url=${encodeURIComponent(`${ORIGIN}/claims/${claim.id}`)}&format=json`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { type: string; html: string };
    expect(body.type).toBe("rich");
    expect(body.html).toContain(`src="${ORIGIN}/embed/claims/${claim.id}"`);
    expect((await call("GET", `/oembed?url=${encodeURIComponent(`${ORIGIN}/claims/${hiddenId}`)}`)).status).toBe(404);
  });

  it("robots.txt names the sitemap; the sitemap lists the visible claim and not the hidden one", async () => {
    expect(await (await call("GET", "/robots.txt")).text()).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    const index = parseXml(await (await call("GET", "/sitemap.xml")).text());
    const files = childrenNamed(index, "sitemap").map((s) => childText(s, "loc")!);
    expect(files).toEqual([`${ORIGIN}/sitemaps/site.xml`, `${ORIGIN}/sitemaps/claims-1.xml`]);
    const urls = parseXml(await (await call("GET", "/sitemaps/claims-1.xml")).text()).children.map((u) => childText(u, "loc"));
    expect(urls).toEqual([`${ORIGIN}/claims/${claim.id}`]);
  });
});

describe("the door", () => {
  it("charges every one of these addresses to the page budget: refused with 429 and Retry-After once spent", async () => {
    const paths = ["/feeds/claims.atom", `/claims/${claim.id}/card.png`, `/embed/claims/${claim.id}`, "/robots.txt", "/sitemap.xml", `/oembed?url=${encodeURIComponent(`${ORIGIN}/claims/${claim.id}`)}`];
    // The budget is a sliding 60-s window: spent across a minute's boundary, it has room again.
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < PAGE_LIMIT; i++) statuses.push((await call("GET", paths[i % paths.length], { headers: from(ip) })).status);
      expect(statuses.every((s) => s === 200 || s === 304), statuses.join(",")).toBe(true);
      for (const path of paths) {
        const refused = await call("GET", path, { headers: { ...from(ip), accept: "application/json" } });
        expect(refused.status, path).toBe(429);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    });
  }, 240_000);

  it("refuses a body over the limit before the handler reads it", async () => {
    // A declared length (fetch would compute its own): the guard answers from the headers alone.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.base}/feeds/claims.atom`, { method: "POST", headers: { ...from(), "content-type": "text/plain", "content-length": String(10 * 1024 * 1024) } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("error", reject);
      req.write("x");
    });
    expect(status).toBe(413);
  });
});
