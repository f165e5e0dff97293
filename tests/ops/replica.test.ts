// Reads on a real streaming replica (DATABASE_REPLICA_URL; CI starts one with .ci/replica): a query's
// reads are served by the replica, except for a caller who has just written (read-your-writes), whose
// reads go to the primary; so do the renders of the pages Next keeps for everyone (a claim, a profile),
// whose copy is served until the next event. The replica is made stale on purpose by pausing its WAL
// replay.
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { root, startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";

process.env.TRUST_PROXY = "1";
process.env.REPLICA_STICKY_SECONDS = "120";

const replicaUrl = process.env.DATABASE_REPLICA_URL;
let api: TestApi;
let primary: pg.Client;
let replica: pg.Client;
let paused = false;
let web: BuiltServer | undefined;

/** A client at `ip` (one trusted proxy in front, as behind nginx). */
const from = (ip: string, token?: string) => ({ headers: { "x-forwarded-for": ip }, token });

function plainUrl(url: string): { connectionString: string; schema: string } {
  const u = new URL(url);
  const schema = u.searchParams.get("schema")!;
  u.searchParams.delete("schema");
  return { connectionString: u.toString(), schema };
}

describe.skipIf(!replicaUrl)("a read replica", () => {
  beforeAll(async () => {
    api = await startApi();
    const p = plainUrl(process.env.DATABASE_URL!);
    primary = new pg.Client({ connectionString: p.connectionString, options: `-c search_path=${p.schema}` });
    const r = plainUrl(replicaUrl!);
    replica = new pg.Client({ connectionString: r.connectionString, options: `-c search_path=${r.schema}` });
    await Promise.all([primary.connect(), replica.connect()]);
  });

  afterAll(async () => {
    if (paused) await replica.query("SELECT pg_wal_replay_resume()");
    web?.stop();
    await Promise.all([primary?.end(), replica?.end()]);
    await api?.close();
  });

  async function agentAt(ip: string, name: string): Promise<string> {
    const email = `${name}-${Date.now()}@example.com`;
    const reg = await api.post("/auth/register", { email, password: "Password123", username: `${name}${Date.now() % 1e7}` }, from(ip));
    expect(reg.status).toBe(201);
    const login = await api.post("/auth/login", { email, password: "Password123" }, from(ip));
    expect(login.status).toBe(200);
    return login.body.access_token as string;
  }

  it("serves a reader from the replica and the agent who just wrote from the primary", async () => {
    expect((await replica.query("SELECT pg_is_in_recovery() AS r")).rows[0].r).toBe(true);
    const writer = await agentAt("198.51.100.1", "writer");
    const created = await api.post("/claims", { statement: "Replicas answer reads." }, from("198.51.100.1", writer));
    expect(created.status).toBe(201);
    const claimId = created.body.id as string;
    // Replicated before the commit returned (CI: synchronous_commit = remote_apply on this database).
    const reader = from("198.51.100.9");
    expect((await api.get(`/claims/${claimId}`, reader)).body.statement).toBe("Replicas answer reads.");

    // Make the replica stale: replay paused, then a change committed on the primary alone.
    await replica.query("SELECT pg_wal_replay_pause()");
    paused = true;
    await primary.query("SET synchronous_commit = local");
    await primary.query("UPDATE claims SET statement = 'Replicas lag.' WHERE id = $1", [claimId]);

    // Someone who never wrote reads the replica: the old statement.
    expect((await api.get(`/claims/${claimId}`, reader)).body.statement).toBe("Replicas answer reads.");
    // The agent who just wrote reads the primary, from any address.
    expect((await api.get(`/claims/${claimId}`, from("198.51.100.77", writer))).body.statement).toBe("Replicas lag.");

    await replica.query("SELECT pg_wal_replay_resume()");
    paused = false;
    for (let i = 0; i < 100; i++) {
      const seen = await replica.query("SELECT statement FROM claims WHERE id = $1", [claimId]);
      if (seen.rows[0]?.statement === "Replicas lag.") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await api.get(`/claims/${claimId}`, reader)).body.statement).toBe("Replicas lag.");
  });

  it("renders the pages it keeps for everyone from the primary, so a lagging replica never stays on one", async () => {
    // The production server on the same database and replica (the env this file runs with).
    web = await startBuiltServer({ TRUST_PROXY: "1", LOG_LEVEL: "error" });
    const page = async (pagePath: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${web!.base}${pagePath}`, {
        headers: { "user-agent": "Mozilla/5.0 (test)", "x-forwarded-for": "198.51.100.40", ...headers },
        signal: AbortSignal.timeout(60_000),
      });
      return { status: res.status, kept: res.headers.get("x-nextjs-cache")?.toLowerCase() ?? null, html: await res.text() };
    };
    const writer = await agentAt("198.51.100.3", "pagewriter");
    const make = async (statement: string) => {
      const res = await api.post("/claims", { statement }, from("198.51.100.3", writer));
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const viewed = await make("A kept page shows what the primary has.");
    const unseen = await make("A first view reads the primary too.");
    // Related claims are computed and stored on a claim's first read: done now, while commits still
    // replicate (a commit of the server's own waits for the replica here, remote_apply).
    for (const id of [viewed, unseen]) expect((await api.get(`/discover/related/${id}`)).status).toBe(200);
    const first = await page(`/claims/${viewed}`);
    expect(first.status).toBe(200);
    expect(first.html).toContain("A kept page shows what the primary has.");

    // The replica stops replaying; both claims change on the primary alone.
    await replica.query("SELECT pg_wal_replay_pause()");
    paused = true;
    await primary.query("SET synchronous_commit = local");
    await primary.query("UPDATE claims SET statement = 'Changed while the replica lags.' WHERE id = $1", [viewed]);
    await primary.query("UPDATE claims SET statement = 'Changed before its first view.' WHERE id = $1", [unseen]);
    // An API reader who never wrote still gets the replica's old answer: the replica does lag.
    expect((await api.get(`/claims/${viewed}`, from("198.51.100.41"))).body.statement).toBe("A kept page shows what the primary has.");

    // The writer's next load (the claims-fresh cookie) renders the page for them and keeps it for everyone.
    const forced = await page(`/claims/${viewed}`, { cookie: "claims-fresh=1" });
    expect(forced.kept).toBe("revalidated");
    expect(forced.html).toContain("Changed while the replica lags.");
    const after = await page(`/claims/${viewed}`);
    expect(after.kept).toBe("hit");
    expect(after.html).toContain("Changed while the replica lags.");
    expect(after.html).not.toContain("A kept page shows what the primary has.");

    // The re-render an event asks for (server/http/page-regen.ts sends the build's preview-mode id).
    await primary.query("UPDATE claims SET statement = 'Changed again, then rendered anew.' WHERE id = $1", [viewed]);
    const manifest = JSON.parse(readFileSync(path.join(root, ".next", "prerender-manifest.json"), "utf8")) as { preview: { previewModeId: string } };
    const rerender = await page(`/claims/${viewed}`, { "x-prerender-revalidate": manifest.preview.previewModeId, "x-prerender-revalidate-if-generated": "1" });
    expect(rerender.status).toBe(200);
    const served = await page(`/claims/${viewed}`);
    expect(served.kept).toBe("hit");
    expect(served.html).toContain("Changed again, then rendered anew.");

    // A page's first view is kept too: it is rendered from the primary.
    const firstView = await page(`/claims/${unseen}`);
    expect(firstView.status).toBe(200);
    expect(firstView.html).toContain("Changed before its first view.");

    await replica.query("SELECT pg_wal_replay_resume()");
    paused = false;
  }, 240_000);

  it("is part of readiness", async () => {
    const ready = await api.get("/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: "ok", replica: "ok" });
  });
});
