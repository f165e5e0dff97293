// Atom 1.0 documents (RFC 4287), written as text: every feed has its id, title, updated, author, a
// self link and its page's alternate link; every entry its id, title, updated and a link
// (docs/features/open-web.md#feeds). Text is escaped, and characters XML cannot carry are dropped.
import { bodyFor } from "./http.ts";

export interface AtomEntry {
  /** A permanent IRI: urn:uuid:… for a thing with an id, the claim's address with a fragment otherwise. */
  id: string;
  title: string;
  updated: string;
  published?: string;
  /** The page the entry is about. */
  link: string;
  summary?: string;
  author?: { name: string; uri?: string };
  categories?: string[];
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle?: string;
  /** The feed's own address. */
  self: string;
  /** The page it follows. */
  alternate: string;
  /** When nothing is in it: when the thing it follows last changed. */
  fallbackUpdated: string;
  entries: AtomEntry[];
}

/** Characters XML 1.0 cannot carry (controls other than tab, newline, return; lone surrogates; U+FFFE/F). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlText(s: string): string {
  return s.replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

const iso = (d: string | Date) => new Date(d).toISOString();

export const SERVICE_NAME = "Claims";

function entryXml(e: AtomEntry): string {
  return [
    "  <entry>",
    `    <id>${xmlText(e.id)}</id>`,
    `    <title type="text">${xmlText(e.title)}</title>`,
    `    <updated>${iso(e.updated)}</updated>`,
    e.published ? `    <published>${iso(e.published)}</published>` : "",
    `    <link rel="alternate" type="text/html" href="${xmlText(e.link)}"/>`,
    e.author ? `    <author><name>${xmlText(e.author.name)}</name>${e.author.uri ? `<uri>${xmlText(e.author.uri)}</uri>` : ""}</author>` : "",
    ...(e.categories ?? []).map((c) => `    <category term="${xmlText(c)}"/>`),
    e.summary ? `    <summary type="text">${xmlText(e.summary)}</summary>` : "",
    "  </entry>",
  ]
    .filter(Boolean)
    .join("\n");
}

export function atomXml(feed: AtomFeed, origin: string): string {
  const updated = feed.entries.reduce((latest, e) => (iso(e.updated) > latest ? iso(e.updated) : latest), iso(feed.fallbackUpdated));
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${xmlText(feed.id)}</id>`,
    `  <title type="text">${xmlText(feed.title)}</title>`,
    feed.subtitle ? `  <subtitle type="text">${xmlText(feed.subtitle)}</subtitle>` : "",
    `  <updated>${updated}</updated>`,
    `  <author><name>${SERVICE_NAME}</name><uri>${xmlText(origin)}/</uri></author>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlText(feed.self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlText(feed.alternate)}"/>`,
    `  <generator uri="${xmlText(origin)}/">${SERVICE_NAME}</generator>`,
    ...feed.entries.map(entryXml),
    "</feed>",
    "",
  ]
    .filter(Boolean)
    .join("\n");
}

/** The feed as an answer: Atom's media type, cached a minute by anyone. */
export function atomResponse(request: Request, feed: AtomFeed, origin: string): Response {
  return new Response(bodyFor(request, atomXml(feed, origin)), {
    status: 200,
    headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "public, max-age=60", "X-Content-Type-Options": "nosniff" },
  });
}
