// The Atom feeds (docs/features/open-web.md#feeds): the newest claims of the site, of a topic and of a
// person, and what happens to one claim (its status, evidence, arguments, outcome). Read as an
// anonymous visitor: hidden claims, evidence and arguments are in none of them.
import type { Claim } from "~/server/contract/claims.ts";
import { authorClaimIds, claimResolution } from "~/server/services/open-web.ts";
import { atomResponse, SERVICE_NAME, type AtomEntry } from "./atom.ts";
import { statusLine } from "./status-line.ts";
import { failed, notFound, publicOrigin, visibleClaim, visitorCaller, type OpenWebCaller } from "./http.ts";

/** Entries per feed: a reader polls often and keeps what it has seen. */
export const FEED_ENTRIES = 50;
/** A person's feed reads each claim whole: fewer. */
export const PROFILE_FEED_ENTRIES = 20;

const EPOCH = "1970-01-01T00:00:00.000Z";

const EVIDENCE_TITLE = { supports: "Evidence for", opposes: "Evidence against", neutral: "Evidence" } as const;

const claimUrl = (origin: string, id: string) => `${origin}/claims/${id}`;

function claimEntry(origin: string, claim: Claim): AtomEntry {
  return {
    id: `urn:uuid:${claim.id}`,
    title: claim.statement,
    published: claim.created_at,
    updated: claim.updated_at > claim.created_at ? claim.updated_at : claim.created_at,
    link: claimUrl(origin, claim.id),
    author: { name: claim.author.display_name || claim.author.username, uri: `${origin}/profiles/${claim.author.username}` },
    categories: claim.tags,
    summary: statusLine(claim),
  };
}

/** GET /feeds/claims.atom: the newest claims. */
export async function siteFeed(request: Request): Promise<Response> {
  const origin = publicOrigin(request);
  try {
    const caller = await visitorCaller(request);
    const { claims } = await caller.claims.list({ sort_by: "created_at", sort_order: "desc", limit: FEED_ENTRIES, offset: 0 });
    return atomResponse(
      request,
      {
        id: `${origin}/feeds/claims.atom`,
        title: `${SERVICE_NAME}: newest claims`,
        subtitle: "Claims as they are submitted, with where consensus stands.",
        self: `${origin}/feeds/claims.atom`,
        alternate: `${origin}/`,
        fallbackUpdated: EPOCH,
        entries: claims.map((c) => claimEntry(origin, c)),
      },
      origin,
    );
  } catch (err) {
    return failed(err, "Feed", "[open-web] site feed failed");
  }
}

/** GET /topics/{tag}/feed.atom: the newest claims with the tag; 404 for a tag no visible claim has, like its page. */
export async function topicFeed(request: Request, tag: string): Promise<Response> {
  const origin = publicOrigin(request);
  try {
    const caller = await visitorCaller(request);
    const topic = await caller.discover.topicClaims({ tag, sort: "recent", limit: FEED_ENTRIES, offset: 0 });
    if (topic.total === 0) return notFound("Topic");
    const page = `${origin}/topics/${encodeURIComponent(topic.tag)}`;
    return atomResponse(
      request,
      {
        id: `${page}/feed.atom`,
        title: `${SERVICE_NAME}: #${topic.tag}`,
        subtitle: `The newest claims tagged #${topic.tag}.`,
        self: `${page}/feed.atom`,
        alternate: page,
        fallbackUpdated: EPOCH,
        entries: topic.claims.map((c) => claimEntry(origin, c)),
      },
      origin,
    );
  } catch (err) {
    return failed(err, "Topic", "[open-web] topic feed failed");
  }
}

/** GET /profiles/{id or username}/feed.atom: the person's newest visible claims. */
export async function profileFeed(request: Request, idOrUsername: string): Promise<Response> {
  const origin = publicOrigin(request);
  try {
    const caller = await visitorCaller(request);
    const profile = await caller.profiles.get({ agent_id: idOrUsername });
    const ids = await authorClaimIds(profile.id, PROFILE_FEED_ENTRIES);
    // Each read through the procedure, as on a page: one hidden since is left out.
    const claims = (await Promise.all(ids.map((id) => visibleClaim(caller, id).catch(() => null)))).filter((c): c is NonNullable<typeof c> => c !== null);
    const page = `${origin}/profiles/${encodeURIComponent(profile.username)}`;
    const name = profile.display_name || profile.username;
    return atomResponse(
      request,
      {
        id: `${origin}/profiles/${profile.id}/feed.atom`,
        title: `${SERVICE_NAME}: claims by ${name}`,
        subtitle: `The newest claims submitted by ${name} (@${profile.username}).`,
        self: `${origin}/profiles/${encodeURIComponent(profile.username)}/feed.atom`,
        alternate: page,
        fallbackUpdated: profile.created_at,
        entries: claims.map((c) => claimEntry(origin, c)),
      },
      origin,
    );
  } catch (err) {
    return failed(err, "Profile", "[open-web] profile feed failed");
  }
}

async function claimEvents(caller: OpenWebCaller, origin: string, claimId: string): Promise<{ claim: Claim; entries: AtomEntry[] }> {
  const claim = await visibleClaim(caller, claimId);
  const url = claimUrl(origin, claim.id);
  const [evidence, args, resolution] = await Promise.all([
    caller.evidence.list({ claim_id: claim.id, limit: FEED_ENTRIES }),
    caller.arguments.list({ claim_id: claim.id, sort_by: "created_at", limit: FEED_ENTRIES }),
    claimResolution(claim.id),
  ]);
  const entries: AtomEntry[] = [
    {
      id: `${url}#submitted`,
      title: `Submitted: ${claim.statement}`,
      updated: claim.created_at,
      link: url,
      author: { name: claim.author.display_name || claim.author.username, uri: `${origin}/profiles/${claim.author.username}` },
    },
  ];
  if (claim.consensus.since) {
    // The status now, dated when it began: a new status is a new entry (its id names when it began).
    entries.push({ id: `${url}#status-${Date.parse(claim.consensus.since)}`, title: statusLine(claim), updated: claim.consensus.since, link: url, summary: claim.statement });
  }
  for (const e of evidence.evidence) {
    const what = e.title ?? e.excerpt ?? e.content;
    entries.push({
      id: `urn:uuid:${e.id}`,
      title: `${EVIDENCE_TITLE[e.position]}: ${what.slice(0, 200)}`,
      updated: e.created_at,
      link: `${url}#evidence`,
      author: { name: e.author.display_name || e.author.username, uri: `${origin}/profiles/${e.author.username}` },
      summary: e.content_type === "link" ? e.content : (e.excerpt ?? undefined),
    });
  }
  for (const a of args.arguments) {
    entries.push({
      id: `urn:uuid:${a.id}`,
      title: `Argument ${a.stance === "supports" ? "for" : "against"}: ${a.claim.statement}`,
      updated: a.created_at,
      link: claimUrl(origin, a.claim.id),
      author: { name: a.author.display_name || a.author.username, uri: `${origin}/profiles/${a.author.username}` },
      summary: statusLine(a.claim),
    });
  }
  if (resolution) {
    entries.push({
      id: `${url}#resolved`,
      title: `Resolved: ${resolution.consensus_true ? "true" : "false"}`,
      updated: resolution.resolved_at.toISOString(),
      link: url,
      summary: "The claim held its consensus long enough: votes on it are now scored.",
    });
  }
  entries.sort((a, b) => Date.parse(b.updated) - Date.parse(a.updated));
  return { claim, entries };
}

/** GET /claims/{id}/feed.atom: what happened to the claim, newest first. */
export async function claimFeed(request: Request, claimId: string): Promise<Response> {
  const origin = publicOrigin(request);
  try {
    const caller = await visitorCaller(request);
    const { claim, entries } = await claimEvents(caller, origin, claimId);
    const url = claimUrl(origin, claim.id);
    return atomResponse(
      request,
      {
        id: `${url}/feed.atom`,
        title: `${SERVICE_NAME}: ${claim.statement}`,
        subtitle: "Its status, evidence, arguments and outcome as they come.",
        self: `${url}/feed.atom`,
        alternate: url,
        fallbackUpdated: claim.created_at,
        entries,
      },
      origin,
    );
  } catch (err) {
    return failed(err, "Claim", "[open-web] claim feed failed");
  }
}
