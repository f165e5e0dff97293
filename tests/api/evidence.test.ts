// Evidence, evidence votes and their effect on the author's reputation (docs/api.md#shapes, #evidence-and-comments, #scoring).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { compareIds, newClaim, newEvidence, quickAgent, quickAgents, reputationOf, setReputation, UNKNOWN_ID, writeCounts, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let reader: Voter;
let claimId: string;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  reader = await quickAgent();
  claimId = (await newClaim(api, author.token)).id;
});
afterAll(() => api.close());

const EVIDENCE_KEYS = [
  "author",
  "claim_id",
  "content",
  "content_type",
  "created_at",
  "downvotes",
  "excerpt",
  "id",
  "position",
  "title",
  "updated_at",
  "upvotes",
  "user_vote",
  "vote_score",
].sort();

const voteOn = (evidenceId: string, direction: unknown, who: Voter) =>
  api.post(`/evidence/${evidenceId}/vote`, { direction }, { token: who.token });
const unvoteOn = (evidenceId: string, who: Voter) => api.del(`/evidence/${evidenceId}/vote`, { token: who.token });
const eventsOf = (agentId: string) =>
  db().reputationEvent.findMany({ where: { agentId }, orderBy: { id: "asc" }, select: { reason: true, delta: true, reputationScore: true, evidenceId: true } });

describe("POST /claims/{claim_id}/evidence", () => {
  it("creates evidence: 201 Evidence, and the claim's evidence_count goes up", async () => {
    const claim = await newClaim(api, author.token);
    const res = await api.post(
      `/claims/${claim.id}/evidence`,
      { position: "opposes", content_type: "code", content: "  print('indentation is kept')\n" },
      { token: reader.token },
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(EVIDENCE_KEYS);
    expect(res.body).toMatchObject({
      claim_id: claim.id,
      position: "opposes",
      content_type: "code",
      content: "  print('indentation is kept')\n",
      upvotes: 0,
      downvotes: 0,
      vote_score: 0,
      user_vote: null,
    });
    expect(res.body.author).toMatchObject({ id: reader.id, tier: "new" });
    expect(res.body.created_at).toMatch(/Z$/);
    expect((await api.get(`/claims/${claim.id}`)).body.evidence_count).toBe(1);
    await newEvidence(api, author.token, claim.id);
    expect((await api.get(`/claims/${claim.id}`)).body.evidence_count).toBe(2);
  });

  it("stores a link as the URL (trimmed) and never needs to reach it", async () => {
    const res = await api.post(
      `/claims/${claimId}/evidence`,
      { position: "neutral", content_type: "link", content: "  https://unreachable.invalid/paper?id=1#s2  " },
      { token: reader.token },
    );
    expect(res.status).toBe(201);
    expect(res.body.content).toBe("https://unreachable.invalid/paper?id=1#s2");
    const long = `http://example.com/${"a".repeat(2048 - 19)}`;
    expect(long).toHaveLength(2048);
    expect((await api.post(`/claims/${claimId}/evidence`, { position: "neutral", content_type: "link", content: long }, { token: reader.token })).status).toBe(201);
  });

  it("accepts content of 50000 characters", async () => {
    const res = await api.post(`/claims/${claimId}/evidence`, { position: "supports", content_type: "data", content: "x".repeat(50_000) }, { token: reader.token });
    expect(res.status).toBe(201);
  });

  it.each([
    ["a missing position", { position: undefined }, "position"],
    ["an unknown position", { position: "agrees" }, "position"],
    ["a missing content_type", { content_type: undefined }, "content_type"],
    ["an unknown content_type", { content_type: "video" }, "content_type"],
    ["a missing content", { content: undefined }, "content"],
    ["empty content", { content: "" }, "content"],
    ["blank content", { content: "  \n " }, "content"],
    ["content of 50001 characters", { content: "x".repeat(50_001) }, "content"],
    ["numeric content", { content: 12345 }, "content"],
    ["a link that is not a URL", { content_type: "link", content: "not a url" }, "content"],
    ["a relative link", { content_type: "link", content: "/papers/1" }, "content"],
    ["an ftp link", { content_type: "link", content: "ftp://example.com/file" }, "content"],
    ["a javascript: link", { content_type: "link", content: "javascript:alert(1)" }, "content"],
    ["a link of 2049 characters", { content_type: "link", content: `http://example.com/${"a".repeat(2030)}` }, "content"],
    ["a link with spaces inside", { content_type: "link", content: "http://exa mple.com/" }, "content"],
  ])("refuses %s with 400 naming the field, and writes nothing", async (_label, override, field) => {
    const before = await writeCounts();
    const body = { position: "supports", content_type: "text", content: "Some evidence", ...override };
    const res = await api.post(`/claims/${claimId}/evidence`, body, { token: reader.token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(new RegExp(`^${field}: `));
    expect(await writeCounts()).toEqual(before);
    expect((await db().claim.findUniqueOrThrow({ where: { id: claimId } })).evidenceCount).toBe(await db().evidence.count({ where: { claimId } }));
  });

  it("says what a link must be", async () => {
    const res = await api.post(`/claims/${claimId}/evidence`, { position: "supports", content_type: "link", content: "example.com" }, { token: reader.token });
    expect(res.body.detail).toBe("content: a link must be an absolute http(s) URL of at most 2048 characters");
  });

  it("answers 404 for an unknown or malformed claim and 401 without a token, writing nothing", async () => {
    const before = await writeCounts();
    const body = { position: "supports", content_type: "text", content: "Some evidence" };
    for (const id of [UNKNOWN_ID, "bad-id"]) {
      const res = await api.post(`/claims/${id}/evidence`, body, { token: reader.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
    }
    expect((await api.post(`/claims/${claimId}/evidence`, body)).status).toBe(401);
    expect(await writeCounts()).toEqual(before);
  });
});

describe("GET /claims/{claim_id}/evidence and GET /evidence/{evidence_id}", () => {
  let claim: string;
  const items: { id: string; position: string }[] = [];
  beforeAll(async () => {
    claim = (await newClaim(api, author.token)).id;
    const voters = await quickAgents(3);
    const positions = ["supports", "opposes", "neutral", "supports", "supports", "opposes", "neutral"];
    for (const position of positions) items.push(await newEvidence(api, author.token, claim, { position }) as any);
    // Scores: item0 +3, item1 +1, item2 -1, item3 +1 (a tie with item1), others 0 (ties).
    const plan: [number, "up" | "down", number][] = [[0, "up", 0], [0, "up", 1], [0, "up", 2], [1, "up", 0], [2, "down", 0], [3, "up", 1]];
    for (const [i, direction, v] of plan) expect((await voteOn(items[i].id, direction, voters[v])).status).toBe(200);
  });

  const expectedOrder = async (sort: "vote_score" | "created_at", order: "asc" | "desc", position?: string) => {
    const rows = await db().evidence.findMany({ where: { claimId: claim, ...(position ? { position: position as any } : {}) } });
    const key = (r: (typeof rows)[number]) => (sort === "vote_score" ? r.voteScore : r.createdAt.getTime());
    const sign = order === "asc" ? 1 : -1;
    return rows.sort((a, b) => sign * (key(a) - key(b) || compareIds(a.id, b.id))).map((r) => r.id);
  };

  it("lists by vote_score, highest first, by default (limit 50), ties broken by id", async () => {
    const res = await api.get(`/claims/${claim}/evidence`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 7, limit: 50, offset: 0 });
    expect(res.body.evidence.map((e: any) => e.id)).toEqual(await expectedOrder("vote_score", "desc"));
    expect(res.body.evidence[0]).toMatchObject({ upvotes: 3, downvotes: 0, vote_score: 3, user_vote: null });
    expect(Object.keys(res.body.evidence[0]).sort()).toEqual(EVIDENCE_KEYS);
  });

  it.each([
    ["vote_score", "asc"],
    ["created_at", "asc"],
    ["created_at", "desc"],
  ] as const)("sort_by=%s sort_order=%s in pages of 2: no overlap, no gap", async (sort, order) => {
    const seen: string[] = [];
    for (let offset = 0; offset < 8; offset += 2) {
      const res = await api.get(`/claims/${claim}/evidence?sort_by=${sort}&sort_order=${order}&limit=2&offset=${offset}`);
      expect(res.body.total).toBe(7);
      seen.push(...res.body.evidence.map((e: any) => e.id));
    }
    expect(seen).toEqual(await expectedOrder(sort, order));
  });

  it("filters by position", async () => {
    const res = await api.get(`/claims/${claim}/evidence?position=supports`);
    expect(res.body.total).toBe(3);
    expect(res.body.evidence.map((e: any) => e.id)).toEqual(await expectedOrder("vote_score", "desc", "supports"));
    expect(res.body.evidence.every((e: any) => e.position === "supports")).toBe(true);
  });

  it("shows the caller's own vote", async () => {
    await voteOn(items[4].id, "down", reader);
    const res = await api.get(`/claims/${claim}/evidence?sort_by=created_at&sort_order=asc`, { token: reader.token });
    const byId = new Map(res.body.evidence.map((e: any) => [e.id, e.user_vote]));
    expect(byId.get(items[4].id)).toBe("down");
    expect(byId.get(items[0].id)).toBeNull();
    await unvoteOn(items[4].id, reader);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["offset=-1", "offset"],
    ["sort_by=upvotes", "sort_by"],
    ["sort_order=up", "sort_order"],
    ["position=maybe", "position"],
  ])("%s → 400 naming %s", async (query, field) => {
    const res = await api.get(`/claims/${claim}/evidence?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(new RegExp(`^${field}: `));
  });

  it("answers 404 'Claim not found' for an unknown or malformed claim", async () => {
    for (const id of [UNKNOWN_ID, "x"]) {
      const res = await api.get(`/claims/${id}/evidence`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
    }
  });

  it("GET /evidence/{id} returns one Evidence; 404 'Evidence not found' otherwise", async () => {
    const res = await api.get(`/evidence/${items[0].id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(EVIDENCE_KEYS);
    expect(res.body).toMatchObject({ id: items[0].id, claim_id: claim, vote_score: 3, user_vote: null });
    for (const id of [UNKNOWN_ID, "nope"]) {
      const missing = await api.get(`/evidence/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: "not_found", detail: "Evidence not found" });
    }
  });
});

describe("evidence votes", () => {
  it("up then down then removed: counters and the author's reputation follow, every change an event", async () => {
    const writer = await quickAgent();
    await setReputation(writer.id, 10);
    const evidence = await newEvidence(api, writer.token, claimId);

    const up = await voteOn(evidence.id, "up", reader);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ upvotes: 1, downvotes: 0, vote_score: 1, user_vote: "up" });
    expect((await reputationOf(writer.id)).reputation).toBe(15);

    const down = await voteOn(evidence.id, "down", reader);
    expect(down.body).toMatchObject({ upvotes: 0, downvotes: 1, vote_score: -1, user_vote: "down" });
    expect((await reputationOf(writer.id)).reputation).toBe(7);

    expect((await unvoteOn(evidence.id, reader)).status).toBe(204);
    expect((await api.get(`/evidence/${evidence.id}`, { token: reader.token })).body).toMatchObject({ upvotes: 0, downvotes: 0, vote_score: 0, user_vote: null });
    expect((await reputationOf(writer.id)).reputation).toBe(10);

    const events = (await eventsOf(writer.id)).slice(1); // the first one set up the score of 10
    expect(events).toEqual([
      { reason: "evidence_upvoted", delta: 5, reputationScore: 15, evidenceId: evidence.id },
      { reason: "evidence_vote_removed", delta: -5, reputationScore: 10, evidenceId: evidence.id },
      { reason: "evidence_downvoted", delta: -3, reputationScore: 7, evidenceId: evidence.id },
      { reason: "evidence_vote_removed", delta: 3, reputationScore: 10, evidenceId: evidence.id },
    ]);
  });

  it("voting the same direction again changes nothing", async () => {
    const writer = await quickAgent();
    const evidence = await newEvidence(api, writer.token, claimId);
    await voteOn(evidence.id, "up", reader);
    const before = await writeCounts();
    const again = await voteOn(evidence.id, "up", reader);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ upvotes: 1, vote_score: 1, user_vote: "up" });
    expect(await writeCounts()).toEqual(before);
    expect((await reputationOf(writer.id)).reputation).toBe(5);
  });

  it("never takes reputation below 0, and a reversal gives back only what was taken", async () => {
    const writer = await quickAgent();
    await setReputation(writer.id, 1);
    const evidence = await newEvidence(api, writer.token, claimId);
    const [a, b] = await quickAgents(2);

    await voteOn(evidence.id, "down", a); // 1 → 0 (applied −1)
    await voteOn(evidence.id, "down", b); // 0 → 0 (applied 0)
    expect((await reputationOf(writer.id)).reputation).toBe(0);
    await unvoteOn(evidence.id, b); // gives back 0, not 3
    expect((await reputationOf(writer.id)).reputation).toBe(0);
    await voteOn(evidence.id, "up", a); // reverse −1 → 1, then +5 → 6
    expect((await reputationOf(writer.id)).reputation).toBe(6);

    expect((await eventsOf(writer.id)).slice(1).map((e) => [e.reason, e.delta, e.reputationScore])).toEqual([
      ["evidence_downvoted", -1, 0],
      ["evidence_downvoted", 0, 0],
      ["evidence_vote_removed", 0, 0],
      ["evidence_vote_removed", 1, 1],
      ["evidence_upvoted", 5, 6],
    ]);
    expect(await checkInvariants()).toEqual([]);
  });

  it("moves the tier both ways", async () => {
    const writer = await quickAgent();
    await setReputation(writer.id, 97);
    const evidence = await newEvidence(api, writer.token, claimId);
    await voteOn(evidence.id, "up", reader);
    expect(await reputationOf(writer.id)).toMatchObject({ reputation: 102, tier: "established" });
    expect((await api.get(`/evidence/${evidence.id}`)).body.author).toMatchObject({ reputation_score: 102, tier: "established" });
    await voteOn(evidence.id, "down", reader);
    expect(await reputationOf(writer.id)).toMatchObject({ reputation: 94, tier: "new" });

    await setReputation(writer.id, 998);
    await unvoteOn(evidence.id, reader);
    expect(await reputationOf(writer.id)).toMatchObject({ reputation: 1001, tier: "trusted" });
    await voteOn(evidence.id, "down", reader);
    expect(await reputationOf(writer.id)).toMatchObject({ reputation: 998, tier: "established" });
  });

  it("refuses a vote on one's own evidence with 403 and changes nothing", async () => {
    const evidence = await newEvidence(api, reader.token, claimId);
    const before = await writeCounts();
    const res = await voteOn(evidence.id, "up", reader);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "forbidden", detail: "Insufficient permissions" });
    expect(await writeCounts()).toEqual(before);
    // Removing a vote one never had is a no-op, own evidence included.
    expect((await unvoteOn(evidence.id, reader)).status).toBe(204);
  });

  it.each([
    ["sideways", { direction: "sideways" }],
    ["UP", { direction: "UP" }],
    ["a number", { direction: 1 }],
    ["nothing", {}],
  ])("refuses direction %s with 400 'direction: ...'", async (_label, body) => {
    const evidence = await newEvidence(api, author.token, claimId);
    const before = await writeCounts();
    const res = await api.post(`/evidence/${evidence.id}/vote`, body, { token: reader.token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("direction: must be up or down");
    expect(await writeCounts()).toEqual(before);
  });

  it("answers 404 'Evidence not found' for unknown or malformed ids, 401 without a token", async () => {
    for (const id of [UNKNOWN_ID, "zzz"]) {
      expect((await voteOn(id, "up", reader)).body).toEqual({ code: "not_found", detail: "Evidence not found" });
      expect((await voteOn(id, "up", reader)).status).toBe(404);
      expect((await unvoteOn(id, reader)).status).toBe(404);
    }
    const evidence = await newEvidence(api, author.token, claimId);
    expect((await api.post(`/evidence/${evidence.id}/vote`, { direction: "up" })).status).toBe(401);
    expect((await api.del(`/evidence/${evidence.id}/vote`)).status).toBe(401);
  });

  it("DELETE with no vote answers 204 and writes nothing", async () => {
    const evidence = await newEvidence(api, author.token, claimId);
    const before = await writeCounts();
    expect((await unvoteOn(evidence.id, reader)).status).toBe(204);
    expect(await writeCounts()).toEqual(before);
  });
});
