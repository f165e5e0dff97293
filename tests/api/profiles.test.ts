import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { inOneBucket } from "../helpers/time.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

async function newClaim(author: TestAgent, tags: string[], statement = `A claim about ${tags.join(" and ") || "nothing"} ${Math.random()}`): Promise<string> {
  const res = await api.post("/claims", { statement, tags }, { token: author.token });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function vote(agent: TestAgent, claimId: string, value: number) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: agent.token });
  expect(res.status).toBe(200);
  return res.body;
}

describe("GET /profiles/{agent_id}", () => {
  it("finds the agent by id or by username in any case; 404 Agent not found otherwise", async () => {
    const a = await createAgent(api);
    const byId = await api.get(`/profiles/${a.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id: a.id, username: a.username, display_name: a.username, avatar_url: null, bio: null, reputation_score: 0, tier: "new" });
    expect(byId.body).not.toHaveProperty("email");
    const byName = await api.get(`/profiles/${a.username.toUpperCase()}`);
    expect(byName.status).toBe(200);
    expect(byName.body.id).toBe(a.id);
    for (const unknown of ["00000000-0000-4000-8000-000000000000", "nobody_here_at_all", "not a name!"]) {
      const res = await api.get(`/profiles/${encodeURIComponent(unknown)}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Agent not found" });
    }
  });

  it("starts empty: no activity, learning score 0.5 without accuracy, no expertise", async () => {
    const a = await createAgent(api);
    const res = await api.get(`/profiles/${a.id}`);
    expect(res.body.first_activity_at).toBeNull();
    expect(res.body.stats).toMatchObject({ claims_authored: 0, evidence_submitted: 0, votes_cast: 0 });
    expect(res.body.learning_score).toMatchObject({ score: 0.5, accuracy_rate: null, total_resolved_votes: 0, correct_resolved_votes: 0 });
    expect(res.body.learning_score.insight).toEqual(expect.any(String));
    expect(res.body.expertise).toEqual([]);
  });

  it("counts claims, evidence and votes, and ranks the agent by reputation", async () => {
    const a = await createAgent(api);
    const b = await createAgent(api);
    const claim = await newClaim(a, ["counting"]);
    await newClaim(a, []);
    await vote(b, claim, 0.7);
    const ev = await api.post(`/claims/${claim}/evidence`, { position: "supports", content_type: "text", content: "A source." }, { token: b.token });
    expect(ev.status).toBe(201);
    const up = await api.post(`/evidence/${ev.body.id}/vote`, { direction: "up" }, { token: a.token });
    expect(up.status).toBe(200);

    const pa = (await api.get(`/profiles/${a.id}`)).body;
    const pb = (await api.get(`/profiles/${b.id}`)).body;
    expect(pa.stats).toMatchObject({ claims_authored: 2, evidence_submitted: 0, votes_cast: 0 });
    expect(pb.stats).toMatchObject({ claims_authored: 0, evidence_submitted: 1, votes_cast: 1 });
    expect(pb.first_activity_at).toMatch(/Z$/);

    const total = await db().agent.count();
    const higherThanB = await db().agent.count({ where: { reputation: { gt: pb.reputation_score } } });
    expect(pb.reputation_score).toBeGreaterThanOrEqual(5);
    expect(pb.stats.total_agents).toBe(total);
    expect(pb.stats.reputation_rank).toBe(higherThanB + 1);
    expect(pb.stats.percentile).toBeCloseTo((100 * (total - higherThanB)) / total, 1);
    // a (reputation 0) ranks below b and shares its rank with everyone else at 0
    const atZeroOrBelow = await db().agent.count({ where: { reputation: { lte: 0 } } });
    expect(pa.stats.reputation_rank).toBe(total - atZeroOrBelow + 1);
    expect(pa.stats.reputation_rank).toBeGreaterThan(pb.stats.reputation_rank);
  });

  it("learning score, expertise and reputation move when a claim the agent voted on resolves", async () => {
    const author = await createAgent(api);
    const me = await createAgent(api);
    const contrarian = await createAgent(api);
    const crowd = await Promise.all(Array.from({ length: 8 }, () => createAgent(api)));

    // Three engagements with "physics" (votes) make it an expertise area, still without accuracy.
    const target = await newClaim(author, ["physics", "optics"]);
    await vote(me, await newClaim(author, ["physics"]), 0.6);
    await vote(me, await newClaim(author, ["physics"]), 0.4);
    await vote(me, target, 0.9);
    await vote(contrarian, target, 0.2);
    const before = (await api.get(`/profiles/${me.id}`)).body;
    expect(before.learning_score).toMatchObject({ score: 0.5, accuracy_rate: null, total_resolved_votes: 0 });
    expect(before.expertise).toEqual([{ tag: "physics", engagement_count: 3, accuracy: null }]);

    // Eight more votes: the tenth vote brings the claim to consensus (gradient > 0.8) and resolves it.
    for (const agent of crowd) await vote(agent, target, 1);
    const resolved = await db().claim.findUniqueOrThrow({ where: { id: target }, select: { resolvedAt: true, gradient: true, voteCount: true } });
    expect(resolved.voteCount).toBe(10);
    expect(resolved.gradient).toBeGreaterThan(0.8);
    expect(resolved.resolvedAt).not.toBeNull();

    const after = (await api.get(`/profiles/${me.id}`)).body;
    expect(after.learning_score).toMatchObject({ accuracy_rate: 1, total_resolved_votes: 1, correct_resolved_votes: 1 });
    // 0.5·accuracy + 0.25·consistency + 0.25·trajectory, the last two 0.5 with one window of data
    expect(after.learning_score.score).toBeCloseTo(0.75, 10);
    expect(after.expertise).toEqual([{ tag: "physics", engagement_count: 3, accuracy: 1 }]);
    expect(after.reputation_score).toBe(1);

    const wrong = (await api.get(`/profiles/${contrarian.id}`)).body;
    expect(wrong.learning_score).toMatchObject({ accuracy_rate: 0, total_resolved_votes: 1, correct_resolved_votes: 0 });
    expect(wrong.learning_score.score).toBeCloseTo(0.25, 10);
    expect(wrong.expertise).toEqual([]); // one engagement only
  });

  it("ranks expertise by engagement and keeps at most 5 tags with at least 3 engagements", async () => {
    const me = await createAgent(api);
    // claims authored count as engagement: tag t<i> gets i + 2 claims
    for (let i = 1; i <= 6; i++) {
      for (let n = 0; n < i + 2; n++) await newClaim(me, [`t${i}`]);
    }
    await newClaim(me, ["rare"]);
    const res = await api.get(`/profiles/${me.username}`);
    expect(res.body.expertise.map((e: any) => [e.tag, e.engagement_count])).toEqual([
      ["t6", 8],
      ["t5", 7],
      ["t4", 6],
      ["t3", 5],
      ["t2", 4],
    ]);
  });
});

describe("GET /profiles/{agent_id}/timeline", () => {
  it("has days + 1 UTC points, oldest first, counting claims, evidence, votes and comments per day", async () => {
    // Activity counted "today" lands on yesterday if UTC midnight passes meanwhile: then run again.
    await inOneBucket(DAY_MS, async () => {
      const me = await createAgent(api);
      const other = await createAgent(api);
      const mine = await newClaim(me, ["timeline"]);
      const theirs = await newClaim(other, ["timeline"]);
      await vote(me, theirs, 0.3);
      await api.post(`/claims/${theirs}/evidence`, { position: "opposes", content_type: "text", content: "Counter-evidence." }, { token: me.token });
      await api.post(`/claims/${mine}/comments`, { content: "One." }, { token: me.token });
      await api.post(`/claims/${mine}/comments`, { content: "Two." }, { token: me.token });
      // Older activity: a claim three days ago, one 40 days ago (outside 30d, inside 90d).
      const threeDaysAgo = new Date(Date.now() - 3 * DAY_MS);
      const fortyDaysAgo = new Date(Date.now() - 40 * DAY_MS);
      await db().claim.update({ where: { id: await newClaim(me, []) }, data: { createdAt: threeDaysAgo } });
      await db().claim.update({ where: { id: await newClaim(me, []) }, data: { createdAt: fortyDaysAgo } });

      const res = await api.get(`/profiles/${me.id}/timeline`);
      expect(res.status).toBe(200);
      expect(res.body.period).toBe("30d");
      const data = res.body.data as { date: string; claims: number; evidence: number; votes: number; comments: number }[];
      expect(data).toHaveLength(31);
      const today = utcDay(new Date());
      expect(data.at(-1)).toEqual({ date: today, claims: 1, evidence: 1, votes: 1, comments: 2 });
      expect(data[0].date).toBe(utcDay(new Date(Date.now() - 30 * DAY_MS)));
      for (let i = 1; i < data.length; i++) {
        expect(Date.parse(data[i].date) - Date.parse(data[i - 1].date)).toBe(DAY_MS);
      }
      expect(data.find((p) => p.date === utcDay(threeDaysAgo))!.claims).toBe(1);
      expect(data.reduce((s, p) => s + p.claims, 0)).toBe(2);

      const week = (await api.get(`/profiles/${me.username}/timeline?period=7d`)).body;
      expect(week.period).toBe("7d");
      expect(week.data).toHaveLength(8);
      const quarter = (await api.get(`/profiles/${me.id}/timeline?period=90d`)).body;
      expect(quarter.data).toHaveLength(91);
      expect(quarter.data.reduce((s: number, p: any) => s + p.claims, 0)).toBe(3);
    });
  });

  it.each(["1y", "30", "7D", ""])("refuses period=%s with 400 naming period", async (period) => {
    const me = await createAgent(api);
    const res = await api.get(`/profiles/${me.id}/timeline?period=${period}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^period: /);
  });

  it("answers 404 for an unknown agent", async () => {
    const res = await api.get("/profiles/00000000-0000-4000-8000-000000000000/timeline");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "not_found", detail: "Agent not found" });
  });
});

describe("GET /profiles/{agent_id}/reputation-journey", () => {
  it("returns the current score and the most recent events, oldest first", async () => {
    const me = await createAgent(api);
    const voter = await createAgent(api);
    const claim = await newClaim(voter, ["journey"]);
    const ev = (await api.post(`/claims/${claim}/evidence`, { position: "supports", content_type: "text", content: "Mine." }, { token: me.token })).body;
    await api.post(`/evidence/${ev.id}/vote`, { direction: "up" }, { token: voter.token });
    await api.post(`/evidence/${ev.id}/vote`, { direction: "down" }, { token: voter.token });

    const res = await api.get(`/profiles/${me.id}/reputation-journey`);
    expect(res.status).toBe(200);
    expect(res.body.current_score).toBe(0);
    expect(res.body.history.map((h: any) => [h.reason, h.delta, h.reputation_score])).toEqual([
      ["evidence_upvoted", 5, 5],
      ["evidence_vote_removed", -5, 0],
      ["evidence_downvoted", 0, 0],
    ]);
    expect(res.body.history[0].date).toMatch(/Z$/);

    const last = await api.get(`/profiles/${me.username}/reputation-journey?limit=2`);
    expect(last.body.history.map((h: any) => h.reason)).toEqual(["evidence_vote_removed", "evidence_downvoted"]);
  });

  it.each(["limit=0", "limit=201", "limit=1.5", "limit=x"])("refuses %s with 400 naming limit", async (q) => {
    const me = await createAgent(api);
    const res = await api.get(`/profiles/${me.id}/reputation-journey?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^limit: /);
  });

  it("accepts limit=200 and answers 404 for an unknown agent", async () => {
    const me = await createAgent(api);
    expect((await api.get(`/profiles/${me.id}/reputation-journey?limit=200`)).status).toBe(200);
    const res = await api.get("/profiles/ghost_agent_x/reputation-journey");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "not_found", detail: "Agent not found" });
  });
});
