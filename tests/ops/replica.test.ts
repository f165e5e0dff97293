// Reads on a real streaming replica (DATABASE_REPLICA_URL; CI starts one with .ci/replica): a query's
// reads are served by the replica, except for a caller who has just written (read-your-writes), whose
// reads go to the primary. The replica is made stale on purpose by pausing its WAL replay.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";

process.env.TRUST_PROXY = "1";
process.env.REPLICA_STICKY_SECONDS = "120";

const replicaUrl = process.env.DATABASE_REPLICA_URL;
let api: TestApi;
let primary: pg.Client;
let replica: pg.Client;
let paused = false;

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

  it("is part of readiness", async () => {
    const ready = await api.get("/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: "ok", replica: "ok" });
  });
});
