// What the requests are about: ids, tokens and votes read from the seeded database, the endpoints
// measured (each with its rotating next request), and which of them each server implements.
import pg from "pg";
import type { Endpoint } from "./load.ts";
import { log } from "./log.ts";
import type { Options } from "./options.ts";
import type { Server } from "./orchestration.ts";

export interface Fixtures {
  claims: string[];
  claimsWithEvidence: string[];
  profiles: string[];
  tag: string;
  q: string;
  deepOffset: number;
  voters: { id: string; token: string }[];
  /** The same agents (the first voters) signed in twice: an access token and an API key each. */
  keyHolders: { token: string; key: string }[];
  /** Vote requests: a different sequence of (agent, claim, value) for each server. */
  votes: { ours: VoteSpec[]; bare: VoteSpec[] };
  /** Votes on the hot claims, each followed by HOT_FOLLOWERS agents (our server only: the bare one has no followers' updates). */
  hotVotes: VoteSpec[];
  hotClaims: string[];
  /** The same pattern of votes on as many other claims that nobody follows: the control for hotVotes. */
  controlVotes: VoteSpec[];
  /** Visible claims with votes, most voted first (the claim page rotates over them). */
  claimsWithVotes: string[];
  /** Claims with arguments under them (the arguments list rotates over them). */
  claimsWithArguments: string[];
  /** Texts near seeded statements (a statement with its last word dropped): what the new-claim form sends while typing. */
  similarQueries: string[];
  /** The long tail of pages (issue 30): up to LONG_TAIL visible claims and agents, in random order. */
  longTailClaims: string[];
  longTailProfiles: string[];
  /** Seeded agents that sign in to the web UI for the signed-in pages (password SEED_PASSWORD). */
  pageAgents: { id: string; email: string; username: string }[];
}

/** How many claims and profiles the long-tail pages rotate over. */
export const LONG_TAIL = 5000;

/** Claims with many followers, and how many each has (every vote on one fans out to them all). */
export const HOT_CLAIMS = 20;
export const HOT_FOLLOWERS = 1000;

interface VoteSpec {
  claim: string;
  token: string;
  value: number;
}

/** How many agents sign in to the web UI for the signed-in pages (their session cookies rotate). */
const PAGE_SESSIONS = 8;

/** A word of the statements' vocabulary: matches a few percent of the claims (see vocabulary.ts). */
const SEARCH_WORD = "battery";

export async function loadFixtures(url: string, opts: Options): Promise<Fixtures> {
  const { signAccessToken } = await import("../server/auth/tokens.ts");
  const { generateApiKey } = await import("../server/auth/api-keys.ts");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ids = async (sql: string) => (await client.query<{ id: string }>(sql)).rows.map((r) => r.id);
    const claims = await ids(`SELECT id::text AS id FROM claims ORDER BY random() LIMIT 2000`);
    const claimsWithEvidence = await ids(`SELECT id::text AS id FROM claims WHERE evidence_count > 0 ORDER BY random() LIMIT 2000`);
    const profiles = await ids(`SELECT id::text AS id FROM agents ORDER BY random() LIMIT 500`);
    const claimsWithArguments = await ids(`SELECT DISTINCT parent_claim_id::text AS id FROM arguments LIMIT 2000`);
    const { rows: statementRows } = await client.query<{ statement: string }>(
      `SELECT statement FROM claims WHERE hidden_at IS NULL ORDER BY random() LIMIT 500`,
    );
    const similarQueries = statementRows.map((r) => r.statement.replace(/\s+\S+$/, "")).filter((q) => q.length >= 10);
    const claimsWithVotes = await ids(`SELECT id::text AS id FROM claims WHERE vote_count > 0 AND hidden_at IS NULL ORDER BY random() LIMIT 500`);
    const longTailClaims = await ids(`SELECT id::text AS id FROM claims WHERE hidden_at IS NULL ORDER BY random() LIMIT ${LONG_TAIL}`);
    const longTailProfiles = await ids(`SELECT id::text AS id FROM agents ORDER BY random() LIMIT ${LONG_TAIL}`);
    const { rows: pageAgents } = await client.query<{ id: string; email: string; username: string }>(
      `SELECT id::text AS id, email, username FROM agents
       WHERE email LIKE 'bench\\_%@example.test' AND password_hash IS NOT NULL AND suspended_at IS NULL AND id <> ALL($1::uuid[])
       ORDER BY random() LIMIT ${PAGE_SESSIONS}`,
      [profiles],
    );
    const { rows: tagRows } = await client.query(`SELECT tag FROM tag_stats ORDER BY claim_count DESC, tag OFFSET 10 LIMIT 1`);
    const { rows: countRows } = await client.query(`SELECT value::int AS n FROM platform_counters WHERE name = 'claims'`);
    // Voters sign in the way a login does: a refresh-token family per agent, access tokens from it.
    const { rows: families } = await client.query<{ id: string; agent_id: string }>(
      `INSERT INTO refresh_token_families (id, agent_id, expires_at)
       SELECT gen_random_uuid(), id, now() + interval '30 days' FROM (SELECT id FROM agents ORDER BY random() LIMIT 2000) a
       RETURNING id::text AS id, agent_id::text AS agent_id`,
    );
    const voters = await Promise.all(
      families.map(async (f) => ({ id: f.agent_id, token: await signAccessToken({ agentId: f.agent_id, familyId: f.id }) })),
    );
    // API keys (scope read) for the first 500 voters, stored as the service stores them (prefix + hash).
    const holders = voters.slice(0, 500).map((v) => ({ ...v, material: generateApiKey() }));
    await client.query(
      `INSERT INTO api_keys (id, agent_id, name, prefix, secret_hash, scopes)
       SELECT gen_random_uuid(), t.agent_id, 'bench', t.prefix, t.hash, ARRAY['read']
       FROM unnest($1::uuid[], $2::text[], $3::text[]) AS t(agent_id, prefix, hash)`,
      [holders.map((h) => h.id), holders.map((h) => h.material.prefix), holders.map((h) => h.material.hash)],
    );
    const keyHolders = holders.map((h) => ({ token: h.token, key: h.material.key }));
    // The hot claims, each followed by HOT_FOLLOWERS agents; the plain votes go to other claims.
    const { rows: hot } = await client.query<{ id: string; author_id: string }>(
      `SELECT id::text AS id, author_id::text AS author_id FROM claims ORDER BY random() LIMIT ${HOT_CLAIMS}`,
    );
    const { rows: targets } = await client.query<{ id: string; author_id: string }>(
      `SELECT id::text AS id, author_id::text AS author_id FROM claims WHERE id <> ALL($1::uuid[]) ORDER BY random() LIMIT 20000`,
      [hot.map((h) => h.id)],
    );
    // Votes by many distinct agents on many claims, never on their own.
    const perServer = Math.max(20_000, Math.ceil(opts.duration * 3000));
    const makeVotes = (seedOffset: number): VoteSpec[] => {
      const out: VoteSpec[] = [];
      for (let i = 0; out.length < perServer; i++) {
        const target = targets[(i * 7919 + seedOffset) % targets.length];
        const voter = voters[(i * 104729 + seedOffset * 31) % voters.length];
        if (voter.id === target.author_id) continue;
        out.push({ claim: target.id, token: voter.token, value: Math.round(Math.random() * 100) / 100 });
      }
      return out;
    };
    await client.query(
      `INSERT INTO follows (agent_id, claim_id, updated_at)
       SELECT a.id, c.id, now() FROM unnest($1::uuid[]) AS c(id)
       CROSS JOIN LATERAL (SELECT id FROM agents ORDER BY random() LIMIT ${HOT_FOLLOWERS}) a
       ON CONFLICT DO NOTHING`,
      [hot.map((h) => h.id)],
    );
    // Votes concentrated on HOT_CLAIMS claims contend for their rows whoever follows them: the control
    // runs the same pattern on as many unfollowed claims, so the ratio between the two is the followers' cost.
    const concentrated = (claims: { id: string; author_id: string }[]): VoteSpec[] => {
      const out: VoteSpec[] = [];
      for (let i = 0; claims.length > 0 && out.length < perServer; i++) {
        const target = claims[i % claims.length];
        const voter = voters[(i * 104729 + 7) % voters.length];
        if (voter.id === target.author_id) continue;
        out.push({ claim: target.id, token: voter.token, value: Math.round(Math.random() * 100) / 100 });
      }
      return out;
    };
    const hotVotes = concentrated(hot);
    const controlVotes = concentrated(targets.slice(-HOT_CLAIMS));
    return {
      claimsWithVotes: claimsWithVotes.length ? claimsWithVotes : claims,
      longTailClaims,
      longTailProfiles,
      pageAgents,
      hotVotes,
      hotClaims: hot.map((h) => h.id),
      controlVotes,
      claims,
      claimsWithEvidence: claimsWithEvidence.length ? claimsWithEvidence : claims,
      claimsWithArguments: claimsWithArguments.length ? claimsWithArguments : claims,
      similarQueries: similarQueries.length ? similarQueries : ["Battery storage lowers the cost of power"],
      profiles,
      tag: tagRows[0]?.tag ?? "science",
      q: SEARCH_WORD,
      deepOffset: Math.min(5000, Math.floor((countRows[0]?.n ?? 0) / 2)),
      voters,
      keyHolders,
      votes: { ours: makeVotes(1), bare: makeVotes(2) },
    };
  } finally {
    await client.end();
  }
}

/**
 * Related claims are a stored set per claim, computed on a claim's first read (server/services/
 * discovery.ts). The steady state of a running site is that the claims people open have theirs: the
 * bench reads related for this many claims, after one unmeasured read of each (warmRelatedSets).
 */
export const RELATED_VIEWED = 300;

/** One read of related for each of these claims (the related run's, by default), a few at a time. */
export async function warmRelatedSets(base: string, f: Fixtures, claimIds = f.claims.slice(0, RELATED_VIEWED)): Promise<number> {
  const started = Date.now();
  const queue = [...claimIds];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let id = queue.pop(); id; id = queue.pop()) await (await fetch(`${base}/api/v1/discover/related/${id}`)).arrayBuffer();
    }),
  );
  return (Date.now() - started) / 1000;
}

function rotating<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length];
}

export function endpoints(f: Fixtures, server: "ours" | "bare"): Endpoint[] {
  const claim = rotating(f.claims);
  const viewedClaim = rotating(f.claims.slice(0, RELATED_VIEWED));
  const evidenceClaim = rotating(f.claimsWithEvidence);
  const argumentClaim = rotating(f.claimsWithArguments);
  const similarQuery = rotating(f.similarQueries);
  const agent = rotating(f.profiles);
  const voter = rotating(f.voters);
  const vote = rotating(f.votes[server]);
  const hotVote = rotating(f.hotVotes);
  const controlVote = rotating(f.controlVotes);
  const tokenHolder = rotating(f.keyHolders);
  const keyHolder = rotating(f.keyHolders);
  const fixed = (path: string) => () => ({ path });
  return [
    { name: "claims", kind: "read", route: "GET /claims", label: "GET /claims", next: fixed("/claims"), bare: true },
    { name: "claims-tag", kind: "read", route: "GET /claims", label: `GET /claims?tags=${f.tag}`, next: fixed(`/claims?tags=${f.tag}`), bare: true },
    { name: "claims-search", kind: "read", route: "GET /claims", label: `GET /claims?q=${f.q}`, next: fixed(`/claims?q=${f.q}`), bare: true },
    { name: "claims-gradient", kind: "read", route: "GET /claims", label: "GET /claims?sort_by=gradient", next: fixed("/claims?sort_by=gradient"), bare: true },
    { name: "claims-offset", kind: "read", route: "GET /claims", label: `GET /claims?offset=${f.deepOffset}`, next: fixed(`/claims?offset=${f.deepOffset}`), bare: true },
    { name: "claim", kind: "read", route: "GET /claims/{claim_id}", label: "GET /claims/{id}", next: () => ({ path: `/claims/${claim()}` }), bare: true },
    {
      name: "evidence",
      kind: "read",
      route: "GET /claims/{claim_id}/evidence",
      label: "GET /claims/{id}/evidence",
      next: () => ({ path: `/claims/${evidenceClaim()}/evidence` }),
      bare: true,
    },
    {
      name: "similar",
      kind: "read",
      route: "GET /claims/similar",
      label: "GET /claims/similar?q=…",
      next: () => ({ path: `/claims/similar?q=${encodeURIComponent(similarQuery())}` }),
      bare: false,
    },
    {
      name: "arguments",
      kind: "read",
      route: "GET /claims/{claim_id}/arguments",
      label: "GET /claims/{id}/arguments",
      next: () => ({ path: `/claims/${argumentClaim()}/arguments` }),
      bare: false,
    },
    { name: "trending", kind: "read", route: "GET /discover/trending", label: "GET /discover/trending", next: fixed("/discover/trending"), bare: true },
    {
      name: "related",
      kind: "read",
      route: "GET /discover/related/{claim_id}",
      label: "GET /discover/related/{id}",
      next: () => ({ path: `/discover/related/${viewedClaim()}` }),
      bare: true,
    },
    {
      name: "recommended",
      kind: "read",
      route: "GET /discover/recommended",
      label: "GET /discover/recommended (token)",
      next: () => ({ path: "/discover/recommended", headers: { authorization: `Bearer ${voter().token}` } }),
      bare: true,
    },
    // The same authenticated read, once with an access token and once with an API key (target: within 10 %).
    {
      name: "me-token",
      kind: "read",
      route: "GET /auth/me",
      label: "GET /auth/me (access token)",
      next: () => ({ path: "/auth/me", headers: { authorization: `Bearer ${tokenHolder().token}` } }),
      bare: false,
    },
    {
      name: "me-key",
      kind: "read",
      route: "GET /auth/me",
      label: "GET /auth/me (API key)",
      next: () => ({ path: "/auth/me", headers: { authorization: `Bearer ${keyHolder().key}` } }),
      bare: false,
    },
    { name: "profile", kind: "read", route: "GET /profiles/{agent_id}", label: "GET /profiles/{id}", next: () => ({ path: `/profiles/${agent()}` }), bare: true },
    {
      name: "timeline",
      kind: "read",
      route: "GET /profiles/{agent_id}/timeline",
      label: "GET /profiles/{id}/timeline",
      next: () => ({ path: `/profiles/${agent()}/timeline` }),
      bare: true,
    },
    { name: "stats", kind: "read", route: "GET /stats/platform", label: "GET /stats/platform", next: fixed("/stats/platform"), bare: true },
    {
      name: "vote",
      kind: "vote",
      route: "POST /claims/{claim_id}/vote",
      label: "POST /claims/{id}/vote",
      next: () => {
        const v = vote();
        return { path: `/claims/${v.claim}/vote`, method: "POST", headers: { authorization: `Bearer ${v.token}` }, body: JSON.stringify({ value: v.value }) };
      },
      bare: true,
    },
    // Votes on HOT_CLAIMS claims nobody follows: the control for vote-followed (same contention).
    {
      name: "vote-concentrated",
      kind: "vote",
      route: "POST /claims/{claim_id}/vote",
      label: `POST /claims/{id}/vote (${HOT_CLAIMS} claims, no followers)`,
      next: () => {
        const v = controlVote();
        return { path: `/claims/${v.claim}/vote`, method: "POST", headers: { authorization: `Bearer ${v.token}` }, body: JSON.stringify({ value: v.value }) };
      },
      bare: false,
    },
    // The same votes on claims that 1,000 agents follow: the fan-out to their inboxes runs in the server's
    // background worker (target: within 10 % of the vote rate on as many unfollowed claims).
    {
      name: "vote-followed",
      kind: "vote",
      route: "POST /claims/{claim_id}/vote",
      label: `POST /claims/{id}/vote (${HOT_FOLLOWERS} followers)`,
      next: () => {
        const v = hotVote();
        return { path: `/claims/${v.claim}/vote`, method: "POST", headers: { authorization: `Bearer ${v.token}` }, body: JSON.stringify({ value: v.value }) };
      },
      bare: false,
    },
  ];
}

export async function availableRoutes(server: Server): Promise<Set<string>> {
  const doc = (await (await fetch(`${server.base}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const routes = new Set<string>();
  for (const [p, methods] of Object.entries(doc.paths)) for (const m of Object.keys(methods)) routes.add(`${m.toUpperCase()} ${p}`);
  return routes;
}

export async function bareRoutes(server: Server, f: Fixtures): Promise<Set<string>> {
  // The bare server answers 404 "Not found" for routes it does not implement.
  const routes = new Set<string>();
  for (const ep of endpoints(f, "bare")) {
    if (ep.kind === "vote") {
      routes.add(ep.route);
      continue;
    }
    const spec = ep.next();
    const res = await fetch(`${server.base}/api/v1${spec.path}`, { headers: spec.headers });
    const body = await res.text();
    if (!(res.status === 404 && body.includes('"Not found"'))) routes.add(ep.route);
  }
  return routes;
}

// ---- the pages (the web UI), measured against a static file of the same server ----

/** A seeded agent signed in to the web UI: the Cookie header a browser would send, and who it is. */
export interface PageSession {
  username: string;
  cookie: string;
}

/** The targets for a page: a share of the yardstick's req/s, and for anonymous pages a p99 bound. */
export interface PageTarget {
  ratio: number;
  p99Ms?: number;
}

export const PAGE_TARGETS = { anonymous: { ratio: 0.5, p99Ms: 250 }, signedIn: { ratio: 0.25 } } satisfies Record<string, PageTarget>;

/** The static file every page is compared with (served by the same server, same run). */
export const YARDSTICK = "page-icon";
/** `--only pages` selects every page and the yardstick. */
export const PAGES = "pages";

/**
 * Signs seeded agents in to the web UI the way a browser does with the email + password form:
 * NextAuth's CSRF token (and its cookie), then the credentials callback, whose Set-Cookie carries
 * the session. Returns the session cookies; throws if no agent gets one.
 */
export async function signInToPages(server: Server, agents: Fixtures["pageAgents"], password: string): Promise<PageSession[]> {
  const sessions: PageSession[] = [];
  const failures: string[] = [];
  for (const agent of agents) {
    const csrf = await fetch(`${server.base}/api/auth/csrf`);
    if (!csrf.ok) throw new Error(`GET /api/auth/csrf answered ${csrf.status}: ${(await csrf.text()).slice(0, 300)}`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const jar = cookiePairs(csrf.headers.getSetCookie());
    const callback = await fetch(`${server.base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
      body: new URLSearchParams({ csrfToken, email: agent.email, password, callbackUrl: `${server.base}/`, json: "true" }).toString(),
    });
    const session = cookiePairs(callback.headers.getSetCookie()).filter((c) => /next-auth\.session-token/.test(c.slice(0, c.indexOf("="))));
    if (session.length === 0) {
      failures.push(`${agent.email}: ${callback.status} ${callback.headers.get("location") ?? (await callback.text()).slice(0, 200)}`);
      continue;
    }
    sessions.push({ username: agent.username, cookie: session.join("; ") });
  }
  if (sessions.length === 0) throw new Error(`no seeded agent could sign in to the web UI:\n  ${failures.slice(0, 5).join("\n  ") || "(no seeded agents with a password)"}`);
  if (failures.length) log(`${failures.length} of ${agents.length} agents could not sign in to the web UI: ${failures[0]}`);
  return sessions;
}

/** `name=value` of each Set-Cookie (attributes dropped), as a Cookie header lists them. */
function cookiePairs(setCookies: string[]): string[] {
  return setCookies.map((c) => c.split(";")[0].trim()).filter((c) => c.includes("=") && !c.endsWith("="));
}

export function pageEndpoints(f: Fixtures, sessions: PageSession[], connections: number): (Endpoint & { target: PageTarget | null })[] {
  const tag = encodeURIComponent(f.tag);
  const pages: { name: string; label: string; path: () => string; anonymousTarget: boolean; signedIn?: false }[] = [
    { name: "home", label: "/", path: () => "/", anonymousTarget: true },
    { name: "claim", label: "/claims/{id}", path: rotatingPath(f.claimsWithVotes, (id) => `/claims/${id}`), anonymousTarget: true },
    // The issue's own measurement: one claim, many readers (a link shared widely).
    { name: "claim-hot", label: "/claims/{one id}", path: () => `/claims/${f.claimsWithVotes[0]}`, anonymousTarget: true, signedIn: false },
    { name: "topic", label: `/topics/${f.tag}`, path: () => `/topics/${tag}`, anonymousTarget: true },
    { name: "profile", label: "/profiles/{id}", path: rotatingPath(f.profiles, (id) => `/profiles/${id}`), anonymousTarget: true },
    // The issue sets no anonymous target for discover; signed in, it is a signed-in page like the others.
    { name: "discover", label: "/discover", path: () => "/discover", anonymousTarget: false },
    // The long tail (docs/features/page-cache.md): each view of the first pass is a first view of its
    // page; the second pass views the same pages again, unchanged since their render (kept pages).
    ...longTail("claim", "/claims", f.longTailClaims),
    ...longTail("profile", "/profiles", f.longTailProfiles),
  ];
  const page = (name: string, label: string, kind: Endpoint["kind"], next: Endpoint["next"], target: PageTarget | null, signedIn = false) => ({
    name,
    kind,
    route: label,
    label,
    next,
    bare: false,
    pathPrefix: "",
    connections,
    signedIn,
    target,
  });
  const out = [page(YARDSTICK, "GET /icon.svg (yardstick)", "static", () => ({ path: "/icon.svg" }), null)];
  const claimId = rotating(f.claimsWithVotes);
  const fillSession = rotating(sessions);
  for (const p of pages) {
    out.push(page(`page-${p.name}`, `GET ${p.label}`, "page", () => ({ path: p.path() }), p.anonymousTarget ? PAGE_TARGETS.anonymous : null));
    if (p.signedIn === false) continue;
    const session = rotating(sessions);
    out.push(
      page(
        `page-${p.name}-signed-in`,
        `GET ${p.label} (signed in)`,
        "page",
        () => ({ path: p.path(), headers: { cookie: session().cookie } }),
        PAGE_TARGETS.signedIn,
        true,
      ),
    );
    // What the browser then asks for (app/_lib/viewer.ts and the claim page's parts): no target of its
    // own; it is what a signed-in view of a claim costs on top of the shared page.
    if (p.name === "claim") {
      out.push(
        page(
          "page-claim-own-fields",
          "GET /api/trpc: a signed-in claim page's own fields (5 calls)",
          "page",
          () => ({ path: claimOwnFieldsPath(claimId()), headers: { cookie: fillSession().cookie } }),
          null,
          true,
        ),
      );
    }
  }
  return out;
}

/**
 * One batch of the calls a signed-in claim page makes once loaded: who is signed in (auth.me), the bell
 * (notifications.list), and the claim, its evidence and its comments as this viewer sees them.
 */
export function claimOwnFieldsPath(claimId: string): string {
  const calls: [string, unknown][] = [
    ["auth.me", {}],
    ["notifications.list", { unread: "true", limit: 1 }],
    ["claims.get", { claim_id: claimId }],
    ["evidence.list", { claim_id: claimId, limit: 50, offset: 0 }],
    ["comments.list", { claim_id: claimId, limit: 50, offset: 0 }],
  ];
  const input = Object.fromEntries(calls.map(([, arg], i) => [String(i), arg]));
  return `/api/trpc/${calls.map(([name]) => name).join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
}

/**
 * Two passes over `ids` (anonymous only): the first views each page once, in order, and never the same
 * page twice; the second views again only the pages the first reached, in the same order.
 */
function longTail(name: string, prefix: string, ids: readonly string[]) {
  let reached = 0;
  let again = 0;
  const label = `${prefix}/{id} (${ids.length.toLocaleString("en-US")} ids)`;
  return [
    { name: `${name}-first-view`, label: `${label}, first view`, path: () => `${prefix}/${ids[reached++ % ids.length]}`, anonymousTarget: false, signedIn: false as const },
    {
      name: `${name}-kept`,
      label: `${label}, unchanged since its render`,
      path: () => `${prefix}/${ids[again++ % Math.max(1, Math.min(reached, ids.length))]}`,
      anonymousTarget: true,
      signedIn: false as const,
    },
  ];
}

/** Each call of the returned function gives the next id's path (each endpoint rotates on its own). */
function rotatingPath(ids: readonly string[], toPath: (id: string) => string): () => string {
  const id = rotating(ids);
  return () => toPath(id());
}

/**
 * Before measuring a signed-in page: the session must be good (auth.me names its agent, as the
 * browser asks), and the page must be the render every viewer is served (no username in it: the
 * browser fills that in). Throws otherwise: a page measured signed out, or rendered per viewer, would
 * be a wrong figure.
 */
export async function checkSignedIn(server: Server, path: string, session: PageSession): Promise<void> {
  const problems: string[] = [];
  const me = await fetch(`${server.base}/api/trpc/auth.me?input=${encodeURIComponent("{}")}`, { headers: { cookie: session.cookie } });
  const meBody = await me.text();
  if (me.status !== 200 || !meBody.includes(`"username":"${session.username}"`)) problems.push(`auth.me answered ${me.status} ${meBody.slice(0, 200)}`);
  if (!path.startsWith("/api/")) {
    const signedIn = await fetch(`${server.base}${path}`, { headers: { cookie: session.cookie } });
    const html = await signedIn.text();
    if (signedIn.status !== 200) problems.push(`status ${signedIn.status}`);
    if (html.includes(`>${session.username}<`)) problems.push(`the page was rendered for ${session.username}, not the same for everyone`);
  }
  if (problems.length) throw new Error(`GET ${path} with ${session.username}'s session cookie: ${problems.join("; ")}`);
}
