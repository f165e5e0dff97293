// Two production instances (`npm start`) behind nginx (Debian's package, its own config on a free port),
// TRUST_PROXY=1, on one PostgreSQL database and one Redis: the balancer spreads requests over both, and
// what must be shared is — the rate limit budget, the statistics cache, the live channel of claim pages
// (a vote through one instance reaches a stream served by the other within 2 s), the webhook workers
// (each message delivered once, though both instances run them) and the kept pages (a claim page one
// instance rendered is served by the other from Redis, and by an instance after its restart).
// Needs DATABASE_URL, REDIS_URL and nginx (CI installs it); skipped otherwise. Then a second pair without
// Redis (DATABASE_URL only): the live channel over PostgreSQL LISTEN/NOTIFY.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSql } from "../../server/db/client.ts";
import { freePort, startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";
import { openSse, type SseStream } from "../helpers/live.ts";
import { eventually, startReceiver, type Receiver } from "../helpers/webhook-receiver.ts";
import { quickAgent, quickAgents, type Voter } from "../api/claims-fixtures.ts";

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));
const runnable = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL && NGINX);
/** The contract's bound: an action shows on open claim pages within 2 seconds of being acknowledged. */
const LIVE_WITHIN_MS = 2000;
const CLAIM_EVENTS = ["claim.voted", "claim.evidence_added", "claim.commented", "claim.resolved"];

/** A JSON call with a bearer token, to an instance or to the balancer. */
async function call(base: string, method: string, route: string, token: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text, upstream: res.headers.get("x-upstream") };
}

async function newClaim(base: string, author: Voter, label: string): Promise<string> {
  const res = await call(base, "POST", "/claims", author.token, { statement: `${label}: a claim made at ${new Date().toISOString()} ${Math.random()}` });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/**
 * Opens a claim's live stream at `streamBase`, casts a vote at `voteBase`, and returns how long after
 * the vote's acknowledgement the stream had the event (failing past LIVE_WITHIN_MS).
 */
async function voteReachesStream(streamBase: string, voteBase: string, streamHeaders: Record<string, string> = {}) {
  const author = await quickAgent();
  const voter = await quickAgent();
  const claimId = await newClaim(voteBase, author, "Live across instances");
  const stream: SseStream = await openSse(`${streamBase}/api/live/claims/${claimId}`, { authorization: `Bearer ${author.token}`, ...streamHeaders });
  try {
    expect(stream.status).toBe(200);
    await eventually(async () => stream.comments.includes("connected"), 10_000);
    const vote = await call(voteBase, "POST", `/claims/${claimId}/vote`, voter.token, { value: 0.8 });
    expect(vote.status, vote.text).toBe(200);
    const acknowledged = Date.now();
    const event = await stream.waitFor((m) => m.event === "claim.voted", LIVE_WITHIN_MS);
    expect(JSON.parse(event.data)).toMatchObject({ claim_id: claimId, type: "claim.voted" });
    return Date.now() - acknowledged;
  } finally {
    stream.close();
  }
}

let instances: BuiltServer[] = [];
let nginx: ChildProcess | undefined;
let nginxDir: string;
let base: string;

function nginxConfig(dir: string, port: number, upstreams: string[]): string {
  return `
worker_processes 1;
daemon off;
master_process on;
user root;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream app {
${upstreams.map((u) => `    server ${u};`).join("\n")}
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Request-Id $request_id;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

describe.skipIf(!runnable)("two instances behind nginx", () => {
  // The webhook receiver of the test below listens on 127.0.0.1, which the SSRF guard refuses otherwise.
  const env = { TRUST_PROXY: "1", RATE_LIMIT_SCALE: "0.2", LOG_LEVEL: "error", WEBHOOK_ALLOW_PRIVATE: "1" };
  beforeAll(async () => {
    // One after the other: the second finds the migrations applied (they take an advisory lock anyway).
    instances.push(await startBuiltServer(env));
    instances.push(await startBuiltServer(env));
    nginxDir = mkdtempSync(path.join(tmpdir(), "claims-nginx-"));
    chmodSync(nginxDir, 0o777);
    const port = await freePort();
    const conf = path.join(nginxDir, "nginx.conf");
    writeFileSync(conf, nginxConfig(nginxDir, port, instances.map((i) => i.base.replace("http://", ""))));
    nginx = spawn(NGINX!, ["-c", conf, "-p", nginxDir, "-e", path.join(nginxDir, "error.log")], { detached: true, stdio: "ignore" });
    base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/v1/health/live`);
  }, 300_000);

  afterAll(() => {
    try {
      if (nginx?.pid) process.kill(-nginx.pid, "SIGKILL");
    } catch {
      /* gone */
    }
    for (const i of instances) i.stop();
    if (nginxDir) rmSync(nginxDir, { recursive: true, force: true });
  });

  const upstreamOf = (res: Response) => res.headers.get("x-upstream");

  it("spreads requests over both instances", async () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 6; i++) seen.add(upstreamOf(await fetch(`${base}/api/v1/health/live`)));
    expect(seen.size).toBe(2);
  });

  it("shares one rate-limit budget: the client's IP is the one nginx saw, and both instances count it", async () => {
    const statuses: { status: number; remaining: number; upstream: string | null }[] = [];
    // The client claims another address; with TRUST_PROXY=1 only the hop nginx added counts.
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${base}/api/v1/claims?limit=1`, { headers: { "x-forwarded-for": `203.0.113.${i}` } });
      statuses.push({ status: res.status, remaining: Number(res.headers.get("x-ratelimit-remaining")), upstream: upstreamOf(res) });
      await res.arrayBuffer();
    }
    const ok = statuses.filter((s) => s.status === 200);
    // Anonymous: 60 × 0.2 = 12 a minute, for the pair together (not 12 each).
    expect(ok.length).toBe(12);
    expect(statuses.slice(12).every((s) => s.status === 429)).toBe(true);
    expect(new Set(ok.map((s) => s.upstream)).size).toBe(2);
    // One counter: Remaining falls by one per request whichever instance answers.
    expect(ok.map((s) => s.remaining)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it("serves /mcp round-robin without sessions: the official client's calls land on both instances", async () => {
    const author = await quickAgent();
    const voter = await quickAgent();
    const claimId = await newClaim(base, author, "MCP through the balancer");
    const upstreams: (string | null)[] = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      upstreams.push(res.headers.get("x-upstream"));
      return res;
    };
    const client = new Client({ name: "balanced-agent", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${voter.token}` } }, fetch: recording }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("cast_vote");
      for (let i = 0; i < 3; i++) {
        const got = (await client.callTool({ name: "get_claim", arguments: { claim_id: claimId } })) as CallToolResult;
        expect((got.structuredContent as { id: string }).id).toBe(claimId);
      }
      const voted = (await client.callTool({ name: "cast_vote", arguments: { claim_id: claimId, value: 0.75 } })) as CallToolResult;
      expect(voted.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    // No session id ties the client to one instance: its requests were spread over both.
    expect(new Set(upstreams.filter(Boolean)).size).toBe(2);
    const seen = await call(base, "GET", `/claims/${claimId}`, voter.token);
    expect(seen.body.user_vote).toBe(0.75);
    expect(seen.body.vote_count).toBe(1);
  });

  it("shares the statistics cache: both instances answer the same computation", async () => {
    const answers: { updated_at: string; upstream: string | null }[] = [];
    for (let i = 0; i < 4; i++) {
      // Straight to each instance, as a client one hop away (the balancer's budget is spent above).
      const instance = instances[i % 2];
      const res = await fetch(`${instance.base}/api/v1/stats/platform`, { headers: { "x-forwarded-for": "198.51.100.7" } });
      expect(res.status).toBe(200);
      answers.push({ updated_at: ((await res.json()) as { updated_at: string }).updated_at, upstream: instance.base });
    }
    expect(new Set(answers.map((a) => a.updated_at)).size).toBe(1);
  });
  it("a vote through one instance shows within 2 s on a claim page served by the other (Redis pub/sub)", { timeout: 60_000 }, async () => {
    // The stream through the balancer (which must not buffer it), the vote straight to the other instance.
    const author = await quickAgent();
    const voter = await quickAgent();
    const claimId = await newClaim(base, author, "Live through nginx");
    const stream = await openSse(`${base}/api/live/claims/${claimId}`, { authorization: `Bearer ${author.token}` });
    try {
      expect(stream.status).toBe(200);
      const serving = instances.findIndex((i) => i.base === `http://${stream.headers.get("x-upstream")}`);
      expect(serving).toBeGreaterThanOrEqual(0);
      const other = instances[1 - serving];
      await eventually(async () => stream.comments.includes("connected"), 10_000);
      const vote = await call(other.base, "POST", `/claims/${claimId}/vote`, voter.token, { value: 0.3 });
      expect(vote.status, vote.text).toBe(200);
      const voted = await stream.waitFor((m) => m.event === "claim.voted", LIVE_WITHIN_MS);
      expect(JSON.parse(voted.data)).toMatchObject({ claim_id: claimId, type: "claim.voted" });
    } finally {
      stream.close();
    }
    // And the other way round, each instance straight: B's page hears A's vote.
    await voteReachesStream(instances[0].base, instances[1].base, { "x-forwarded-for": "198.51.100.21" });
  });

  it("each webhook message is delivered exactly once while both instances run the workers", { timeout: 180_000 }, async () => {
    const receiver: Receiver = await startReceiver();
    try {
      const [author, follower, ...voters] = await quickAgents(32);
      const claims = [await newClaim(base, author, "Exactly once A"), await newClaim(base, author, "Exactly once B")];
      for (const id of claims) expect((await call(base, "POST", `/claims/${id}/follow`, follower.token)).status).toBe(200);
      const hook = await call(base, "POST", "/webhooks", follower.token, { url: receiver.url, events: CLAIM_EVENTS });
      expect(hook.status, hook.text).toBe(201);
      receiver.secret = hook.body.secret;

      // N votes through the balancer, concurrently: each instance takes about half, and its relay and
      // workers race the other's for the events and the deliveries.
      const votes = await Promise.all(
        voters.map(async (v, i) => {
          const claimId = claims[i % claims.length];
          const res = await call(base, "POST", `/claims/${claimId}/vote`, v.token, { value: (i % 5) / 4 });
          expect(res.status, res.text).toBe(200);
          return { actor: v.id, claimId, upstream: res.upstream };
        }),
      );
      expect(new Set(votes.map((v) => v.upstream)).size).toBe(2);
      const [{ n }] = await readSql<{ n: number }>`
        SELECT count(*)::int AS n FROM outbox_events WHERE claim_id = ANY(${claims}::uuid[]) AND actor_id IS DISTINCT FROM ${follower.id}::uuid`;
      // The votes, plus any resolution they caused.
      expect(n).toBeGreaterThanOrEqual(votes.length);

      await receiver.waitFor((all) => all.length >= n, 90_000);
      // Until every delivery has settled, so that a duplicate would have arrived by now.
      await eventually(async () => {
        const [row] = await readSql<{ pending: number }>`
          SELECT count(*)::int AS pending FROM webhook_deliveries WHERE webhook_id = ${hook.body.id}::uuid AND status = 'pending'`;
        return row.pending === 0;
      }, 60_000);
      await new Promise((r) => setTimeout(r, 1000));
      const ids = receiver.received.map((r) => r.id);
      expect(ids.length).toBe(n);
      expect(new Set(ids).size).toBe(n);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      // Every vote's event, by its actor and claim.
      const voted = new Set(receiver.received.filter((r) => r.body.type === "claim.voted").map((r) => `${r.body.data.actor_id}|${r.body.data.claim.id}`));
      expect(votes.filter((v) => !voted.has(`${v.actor}|${v.claimId}`))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
  // Last: it restarts the second instance (on a port of its own, which nginx does not know).
  it("keeps pages in the shared store: a page one instance rendered is served by the other and after a restart", { timeout: 240_000 }, async () => {
    const author = await quickAgent();
    const claimId = await newClaim(instances[0].base, author, "Kept in the shared store");
    const view = async (instanceBase: string) => {
      const res = await fetch(`${instanceBase}/claims/${claimId}`, { headers: { "user-agent": "Mozilla/5.0 (test)" } });
      return { status: res.status, kept: res.headers.get("x-nextjs-cache"), html: await res.text() };
    };
    const first = await view(instances[0].base);
    expect(first.status).toBe(200);
    expect(first.kept).toBe("MISS");
    // The other instance never rendered it: its first view is the stored render, byte for byte.
    const other = await view(instances[1].base);
    expect(other.kept).toBe("HIT");
    expect(other.html).toBe(first.html);
    // A vote through the second instance: the page is rendered anew off the request path, once, and
    // both instances serve the new render from the store.
    const voter = await quickAgent();
    const vote = await call(instances[1].base, "POST", `/claims/${claimId}/vote`, voter.token, { value: 0.7 });
    expect(vote.status, vote.text).toBe(200);
    let latest = first;
    await eventually(async () => {
      const [a, b] = [await view(instances[0].base), await view(instances[1].base)];
      latest = a;
      return a.kept === "HIT" && b.kept === "HIT" && a.html === b.html && a.html !== first.html;
    }, 10_000);
    expect(latest.html).toMatch(/1\s*(<!-- -->)?\s*vote\b/);
    // A restarted instance serves it from the store without rendering it.
    instances[1].stop();
    instances[1] = await startBuiltServer(env);
    const restarted = await view(instances[1].base);
    expect(restarted.kept).toBe("HIT");
    expect(restarted.html).toBe(latest.html);
  });
});

// The same deployment without Redis: the live channel goes over PostgreSQL LISTEN/NOTIFY (the relay's
// NOTIFY commits with its transaction). Straight to each instance: nothing here needs the balancer.
describe.skipIf(!process.env.DATABASE_URL)("two instances without Redis (PostgreSQL LISTEN/NOTIFY)", () => {
  const pair: BuiltServer[] = [];
  beforeAll(async () => {
    // After the pair above has stopped: its relays would take these events and publish them on Redis.
    for (let i = 0; i < 2; i++) pair.push(await startBuiltServer({ REDIS_URL: undefined, LOG_LEVEL: "error" }));
  }, 300_000);
  afterAll(() => {
    for (const i of pair) i.stop();
  });

  it("a vote through one instance shows within 2 s on a claim page served by the other", { timeout: 60_000 }, async () => {
    await voteReachesStream(pair[1].base, pair[0].base);
    await voteReachesStream(pair[0].base, pair[1].base);
  });
});
