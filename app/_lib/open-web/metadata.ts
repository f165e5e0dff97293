// The head of the pages that travel (docs/features/open-web.md#cards): OpenGraph and Twitter card
// tags, the canonical address, and the alternates (Atom feed, Markdown twin, oEmbed discovery). Pages
// are rendered once for everyone (docs/features/page-cache.md) and read no request, so absolute
// addresses start at the configured public address (NEXTAUTH_URL), as every address the service hands
// out does (server/http/public-origin.ts).
import type { Metadata } from "next";
import { config, isNextBuild } from "~/server/config.ts";
import type { Claim } from "~/server/contract/claims.ts";
import { SERVICE_NAME } from "./atom.ts";
import { cardPath, CARD_HEIGHT, CARD_WIDTH } from "./card-version.ts";
import { statusLine } from "./status-line.ts";

export const SITE_DESCRIPTION = "Submit claims, vote how true they are, bring evidence, and see where consensus stands.";

/** The public origin pages name in their head: NEXTAUTH_URL (required in production), else this server. */
export function siteOrigin(): string {
  const cfg = config();
  return cfg.NEXTAUTH_URL ? new URL(cfg.NEXTAUTH_URL).origin : `http://localhost:${cfg.PORT}`;
}

/**
 * What every page says of the site, unless it says more: the root layout's metadata. The few pages
 * `next build` renders (the not-found page) are rendered without the public address, which a build does
 * not have: they carry the words and no address.
 */
export function siteMetadata(): Metadata {
  const words: Metadata = {
    title: { default: `${SERVICE_NAME} — where consensus stands`, template: `%s · ${SERVICE_NAME}` },
    description: SITE_DESCRIPTION,
    applicationName: SERVICE_NAME,
  };
  if (isNextBuild()) return words;
  return {
    ...words,
    metadataBase: new URL(siteOrigin()),
    openGraph: { type: "website", siteName: SERVICE_NAME, title: `${SERVICE_NAME} — where consensus stands`, description: SITE_DESCRIPTION, url: "/" },
    twitter: { card: "summary", title: `${SERVICE_NAME} — where consensus stands`, description: SITE_DESCRIPTION },
    alternates: { types: { "application/atom+xml": [SITE_FEED] } },
  };
}

/** The site's feed, linked from every page (a page that names alternates of its own names it again: Next replaces, not merges, them). */
const SITE_FEED = { url: "/feeds/claims.atom", title: `${SERVICE_NAME}: newest claims` };

const shortTitle = (s: string) => (s.length > 70 ? `${s.slice(0, 67)}…` : s);

/** A claim page's head. A hidden claim (its author's or a moderator's view) is not for sharing: no card, no index. */
export function claimMetadata(claim: Claim): Metadata {
  const title = shortTitle(claim.statement);
  const path = `/claims/${claim.id}`;
  if (claim.moderation) return { title, robots: { index: false }, alternates: { canonical: path } };
  const status = statusLine(claim);
  const description = `${status}. ${claim.statement}`.slice(0, 300);
  const image = { url: cardPath(claim), width: CARD_WIDTH, height: CARD_HEIGHT, alt: `${claim.statement.slice(0, 200)} — ${status}`, type: "image/png" };
  return {
    title,
    description,
    alternates: {
      canonical: path,
      types: {
        // The Markdown twin for agents (server/mcp/site.ts), the claim's feed, and oEmbed discovery.
        "text/markdown": `${path}.md`,
        "application/atom+xml": [{ url: `${path}/feed.atom`, title: `Updates on this claim` }, SITE_FEED],
        "application/json+oembed": [{ url: `/oembed?url=${encodeURIComponent(`${siteOrigin()}${path}`)}&format=json`, title: claim.statement.slice(0, 200) }],
      },
    },
    openGraph: {
      type: "article",
      url: path,
      siteName: SERVICE_NAME,
      title: claim.statement.slice(0, 300),
      description: status,
      images: [image],
      publishedTime: claim.created_at,
      modifiedTime: claim.updated_at,
      tags: claim.tags,
    },
    twitter: { card: "summary_large_image", title: shortTitle(claim.statement), description: status, images: [image] },
  };
}

/** A profile page's head: its card (no picture of its own), its canonical address, its feed. */
export function profileMetadata(profile: { id: string; username: string; display_name: string; bio: string | null }): Metadata {
  const title = `${profile.display_name} (@${profile.username})`;
  const path = `/profiles/${encodeURIComponent(profile.username)}`;
  const description = profile.bio?.slice(0, 300) || `Claims, votes and track record of ${profile.display_name} on ${SERVICE_NAME}.`;
  return {
    title,
    description,
    alternates: { canonical: path, types: { "application/atom+xml": [{ url: `${path}/feed.atom`, title: `Claims by ${profile.display_name}` }, SITE_FEED] } },
    openGraph: { type: "profile", url: path, siteName: SERVICE_NAME, title, description, username: profile.username },
    twitter: { card: "summary", title, description },
  };
}

/** A topic page's head: canonical address and feed. */
export function topicMetadata(tag: string): Metadata {
  const path = `/topics/${encodeURIComponent(tag)}`;
  const title = `#${tag}`;
  const description = `Claims tagged #${tag} on ${SERVICE_NAME}, and where consensus stands on each.`;
  return {
    title,
    description,
    alternates: { canonical: path, types: { "application/atom+xml": [{ url: `${path}/feed.atom`, title: `${SERVICE_NAME}: #${tag}` }, SITE_FEED] } },
    openGraph: { type: "website", url: path, siteName: SERVICE_NAME, title, description },
    twitter: { card: "summary", title, description },
  };
}
