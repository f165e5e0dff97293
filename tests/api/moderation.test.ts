// Moderation (docs/features/moderation.md) over real HTTP: roles and their 403s, reports and the queue, hiding and
// restoring (gone from every list, search, discovery result, topic, count and statistic; 404 to others,
// a banner for its author; back whole on restore), counters exact under concurrent hides and votes,
// suspension killing every credential at once, and the audit log.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as webGet } from "../../app/api/trpc/[trpc]/route.ts";
import { db } from "../../server/db/client.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { grantAdmin } from "../../server/services/moderation.ts";
import { refreshPlatformStats } from "../../server/services/stats.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";

let api: TestApi;
let admin: TestAgent;
let moderator: TestAgent;
let member: TestAgent;
let author: TestAgent;

const NIL = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  api = await startApi();
  [admin, moderator, member, author] = await Promise.all([createAgent(api), createAgent(api), createAgent(api), createAgent(api)]);
  expect((await grantAdmin(admin.username))?.role).toBe("admin");
  const promoted = await api.request("PUT", `/admin/agents/${moderator.id}/role`, { token: admin.token, body: { role: "moderator" } });
  expect(promoted.status, promoted.text).toBe(200);
  expect(promoted.body.role).toBe("moderator");
});
afterAll(() => api.close());

async function newClaim(who: TestAgent, statement: string, tags: string[] = []) {
  const res = await api.post("/claims", { statement, tags }, { token: who.token });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; author: { role: string } };
}

async function sessionCookie(agentId: string, authTime = Math.floor(Date.now() / 1000)): Promise<string> {
  const token = await encode({ token: { sub: agentId, authTime }, secret: process.env.NEXTAUTH_SECRET! });
  return `next-auth.session-token=${token}`;
}

function webCall(procedure: string, input: unknown, cookie: string) {
  return webGet(new Request(`http://localhost/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { cookie } }));
}

describe("roles", () => {
  it("shows the role on the Agent", async () => {
    const me = await api.get("/auth/me", { token: member.token });
    expect(me.body.role).toBe("member");
    const mine = await newClaim(author, "Roles are part of the agent shape.");
    expect(mine.author.role).toBe("member");
  });

  it("answers 403 to a member on every moderation endpoint, and 401 without a token", async () => {
    const claim = await newClaim(author, "A claim the member cannot hide.");
    const report = await api.post("/reports", { target_type: "claim", target_id: claim.id, reason: "spam" }, { token: member.token });
    expect(report.status).toBe(201);
    const calls: [string, string, unknown?][] = [
      ["GET", "/moderation/reports"],
      ["GET", "/moderation/audit"],
      ["POST", `/moderation/reports/${report.body.id}/resolve`, { action: "dismiss" }],
      ["POST", `/moderation/claim/${claim.id}/hide`, { reason: "spam" }],
      ["POST", `/moderation/claim/${claim.id}/restore`, {}],
      ["POST", `/moderation/agents/${author.id}/suspend`, { reason: "spam" }],
      ["POST", `/moderation/agents/${author.id}/unsuspend`, {}],
      ["PUT", `/admin/agents/${author.id}/role`, { role: "moderator" }],
    ];
    for (const [method, path, body] of calls) {
      const asMember = await api.request(method, path, { token: member.token, body });
      expect(asMember.status, `${method} ${path}`).toBe(403);
      expect(asMember.body).toEqual({ code: "forbidden", detail: "Insufficient permissions" });
      const anonymous = await api.request(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
    }
    // A moderator is no admin.
    const asModerator = await api.request("PUT", `/admin/agents/${author.id}/role`, { token: moderator.token, body: { role: "moderator" } });
    expect(asModerator.status).toBe(403);
    // Nothing happened.
    expect((await api.get(`/claims/${claim.id}`)).status).toBe(200);
    expect((await api.get("/moderation/audit", { token: moderator.token })).body.entries.some((e: { target_id: string }) => e.target_id === claim.id)).toBe(false);
  });

  it("closes moderation to API keys, even a moderator's", async () => {
    const key = await api.post("/auth/api-keys", { name: "mod bot", scopes: ["read", "write", "vote"] }, { token: moderator.token });
    expect(key.status).toBe(201);
    const res = await api.get("/moderation/reports", { token: key.body.key });
    expect(res.status).toBe(403);
  });

  it("applies a role change at once, on tokens already issued", async () => {
    const helper = await createAgent(api);
    expect((await api.get("/moderation/reports", { token: helper.token })).status).toBe(403);
    await api.request("PUT", `/admin/agents/${helper.id}/role`, { token: admin.token, body: { role: "moderator" } });
    expect((await api.get("/moderation/reports", { token: helper.token })).status).toBe(200);
    await api.request("PUT", `/admin/agents/${helper.id}/role`, { token: admin.token, body: { role: "member" } });
    expect((await api.get("/moderation/reports", { token: helper.token })).status).toBe(403);
  });
});

describe("reports and the queue", () => {
  it("takes one open report per reporter and target, refuses unknown targets and oneself", async () => {
    const claim = await newClaim(author, "A claim reported twice by the same member.");
    const body = { target_type: "claim", target_id: claim.id, reason: "spam", note: "buy now" };
    const first = await api.post("/reports", body, { token: member.token });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ target_type: "claim", target_id: claim.id, reason: "spam", note: "buy now", status: "open" });
    expect((await api.post("/reports", body, { token: member.token })).status).toBe(409);
    expect((await api.post("/reports", { ...body, target_id: NIL }, { token: member.token })).body).toEqual({ code: "not_found", detail: "Claim not found" });
    expect((await api.post("/reports", { ...body, target_type: "agent", target_id: member.id }, { token: member.token })).status).toBe(400);
    expect((await api.post("/reports", body, { token: author.token })).status).toBe(400);
    expect((await api.post("/reports", { ...body, reason: "boring" }, { token: member.token })).status).toBe(400);
  });

  it("lists the most reported targets first and resolves every open report on a target at once", async () => {
    const spam = await newClaim(author, "Spam claim reported by two members.");
    const other = await newClaim(author, "Claim reported once for being off topic.");
    const second = await createAgent(api);
    const r1 = await api.post("/reports", { target_type: "claim", target_id: spam.id, reason: "spam" }, { token: member.token });
    await api.post("/reports", { target_type: "claim", target_id: spam.id, reason: "abuse" }, { token: second.token });
    await api.post("/reports", { target_type: "claim", target_id: other.id, reason: "off_topic" }, { token: member.token });

    const queue = await api.get("/moderation/reports?target_type=claim&limit=100", { token: moderator.token });
    expect(queue.status, queue.text).toBe(200);
    const ids = queue.body.targets.map((t: { target_id: string }) => t.target_id);
    expect(ids.indexOf(spam.id)).toBeLessThan(ids.indexOf(other.id));
    const entry = queue.body.targets.find((t: { target_id: string }) => t.target_id === spam.id);
    expect(entry).toMatchObject({ target_type: "claim", report_count: 2, reasons: { spam: 1, abuse: 1, misinformation: 0 } });
    expect(entry.target.statement).toBe("Spam claim reported by two members.");
    expect(entry.reports).toHaveLength(2);

    const resolved = await api.post(`/moderation/reports/${r1.body.id}/resolve`, { action: "hide", note: "obvious spam" }, { token: moderator.token });
    expect(resolved.status, resolved.text).toBe(204);
    const after = await api.get("/moderation/reports?limit=100", { token: moderator.token });
    expect(after.body.targets.some((t: { target_id: string }) => t.target_id === spam.id)).toBe(false);
    const actioned = await api.get("/moderation/reports?status=actioned&limit=100", { token: moderator.token });
    expect(actioned.body.targets.find((t: { target_id: string }) => t.target_id === spam.id).report_count).toBe(2);
    expect((await api.get(`/claims/${spam.id}`)).status).toBe(404);
    expect((await api.post(`/moderation/reports/${r1.body.id}/resolve`, { action: "dismiss" }, { token: moderator.token })).status).toBe(409);
    expect((await api.post(`/moderation/reports/${NIL}/resolve`, { action: "dismiss" }, { token: moderator.token })).status).toBe(404);
  });
});

describe("hiding and restoring", () => {
  it("takes a claim out of every list, search, discovery result, topic, count and statistic, and brings it back whole", async () => {
    const tag = `hideme${Date.now()}`;
    const statement = `Zanzibarian ferrets outrun cheetahs ${Date.now()}`;
    const claim = await newClaim(author, statement, [tag, "shared"]);
    const sibling = await newClaim(member, "A sibling claim sharing the tag of the hidden one.", [tag]);
    const voter = await createAgent(api);
    expect((await api.post(`/claims/${claim.id}/vote`, { value: 0.9 }, { token: voter.token })).status).toBe(200);
    expect((await api.post(`/claims/${sibling.id}/vote`, { value: 0.4 }, { token: voter.token })).status).toBe(200);
    const evidence = await api.post(`/claims/${claim.id}/evidence`, { position: "supports", content_type: "text", content: "Seen it." }, { token: member.token });
    expect(evidence.status).toBe(201);

    const snapshot = async () => {
      const [list, search, trending, topics, topic, related, stats, profile, detail] = await Promise.all([
        api.get("/claims?limit=100"),
        api.get(`/claims?q=${encodeURIComponent("Zanzibarian ferrets")}`),
        api.get("/discover/trending?limit=50"),
        api.get("/discover/topics?limit=100"),
        api.get(`/discover/topics/${tag}`),
        api.get(`/discover/related/${sibling.id}`),
        api.get("/stats/platform"),
        api.get(`/profiles/${author.id}`),
        api.get(`/claims/${claim.id}`),
      ]);
      const has = (claims: { id: string }[]) => claims.some((c) => c.id === claim.id);
      return {
        inList: has(list.body.claims),
        listTotal: list.body.total,
        inSearch: has(search.body.claims),
        inTrending: has(trending.body.claims),
        topicCount: topics.body.topics.find((t: { tag: string }) => t.tag === tag)?.claim_count ?? 0,
        inTopic: has(topic.body.claims),
        topicTotal: topic.body.total,
        inRelated: has(related.body.related),
        totalClaims: stats.body.total_claims,
        totalVotes: stats.body.total_votes,
        authored: profile.body.stats.claims_authored,
        detailStatus: detail.status,
        detail: detail.body,
      };
    };

    // The statistics are cached for 5 minutes (docs/api.md#discovery): start from a fresh copy; hide and restore refresh it.
    await refreshPlatformStats();
    const before = await snapshot();
    expect(before).toMatchObject({ inList: true, inSearch: true, inTrending: true, topicCount: 2, inTopic: true, inRelated: true, detailStatus: 200 });

    const hidden = await api.post(`/moderation/claim/${claim.id}/hide`, { reason: "spam" }, { token: moderator.token });
    expect(hidden.status, hidden.text).toBe(204);
    const during = await snapshot();
    expect(during).toMatchObject({
      inList: false,
      listTotal: before.listTotal - 1,
      inSearch: false,
      inTrending: false,
      topicCount: 1,
      inTopic: false,
      topicTotal: before.topicTotal - 1,
      inRelated: false,
      totalClaims: before.totalClaims - 1,
      totalVotes: before.totalVotes - 1,
      authored: before.authored - 1,
      detailStatus: 404,
    });
    expect(during.detail).toEqual({ code: "not_found", detail: "Claim not found" });
    // Others: 404, its evidence too; votes refused with 404.
    expect((await api.get(`/claims/${claim.id}`, { token: member.token })).status).toBe(404);
    expect((await api.get(`/evidence/${evidence.body.id}`, { token: voter.token })).status).toBe(404);
    expect((await api.get(`/claims/${claim.id}/evidence`)).status).toBe(404);
    expect((await api.post(`/claims/${claim.id}/vote`, { value: 0.1 }, { token: member.token })).status).toBe(404);
    expect((await api.post(`/evidence/${evidence.body.id}/vote`, { direction: "up" }, { token: voter.token })).status).toBe(404);
    // Its author and moderators see it, with the banner's data.
    for (const viewer of [author, moderator]) {
      const seen = await api.get(`/claims/${claim.id}`, { token: viewer.token });
      expect(seen.status).toBe(200);
      expect(seen.body.moderation).toMatchObject({ hidden: true, reason: "spam" });
    }
    expect(await checkInvariants()).toEqual([]);

    expect((await api.post(`/moderation/claim/${claim.id}/restore`, {}, { token: moderator.token })).status).toBe(204);
    const after = await snapshot();
    expect(after).toEqual(before);
    expect(after.detail.moderation).toBeUndefined();
    expect(await checkInvariants()).toEqual([]);
  });

  it("hides evidence and comments: out of the lists and the claim's counts, back on restore", async () => {
    const claim = await newClaim(author, "A claim with evidence and comments to hide.");
    const ev = await api.post(`/claims/${claim.id}/evidence`, { position: "opposes", content_type: "text", content: "Spam link farm" }, { token: member.token });
    const comment = await api.post(`/claims/${claim.id}/comments`, { content: "Buy cheap stuff" }, { token: member.token });
    expect(comment.status).toBe(201);

    expect((await api.post(`/moderation/evidence/${ev.body.id}/hide`, { reason: "spam" }, { token: moderator.token })).status).toBe(204);
    expect((await api.post(`/moderation/comment/${comment.body.id}/hide`, { reason: "spam" }, { token: moderator.token })).status).toBe(204);
    const detail = await api.get(`/claims/${claim.id}`);
    expect(detail.body.evidence_count).toBe(0);
    expect((await api.get(`/claims/${claim.id}/evidence`)).body.total).toBe(0);
    expect((await api.get(`/claims/${claim.id}/comments`)).body.total).toBe(0);
    expect((await api.get(`/evidence/${ev.body.id}`)).status).toBe(404);
    expect((await api.get(`/evidence/${ev.body.id}`, { token: member.token })).body.moderation).toMatchObject({ hidden: true });
    expect(await checkInvariants()).toEqual([]);

    expect((await api.post(`/moderation/evidence/${ev.body.id}/restore`, {}, { token: moderator.token })).status).toBe(204);
    expect((await api.post(`/moderation/comment/${comment.body.id}/restore`, {}, { token: moderator.token })).status).toBe(204);
    expect((await api.get(`/claims/${claim.id}`)).body.evidence_count).toBe(1);
    expect((await api.get(`/claims/${claim.id}/comments`)).body.total).toBe(1);
    expect(await checkInvariants()).toEqual([]);
  });

  it("keeps every counter exact under concurrent hides, restores and votes", async () => {
    const claims = await Promise.all([0, 1, 2].map((i) => newClaim(author, `Concurrency claim number ${i} for hiding.`, ["storm", `s${i}`])));
    const voters = await Promise.all([0, 1, 2, 3, 4].map(() => createAgent(api)));
    const ops: Promise<unknown>[] = [];
    for (let round = 0; round < 3; round++) {
      for (const c of claims) {
        ops.push(api.post(`/moderation/claim/${c.id}/${round % 2 === 0 ? "hide" : "restore"}`, { reason: "storm" }, { token: moderator.token }));
        ops.push(api.post(`/moderation/claim/${c.id}/hide`, { reason: "storm" }, { token: admin.token }));
        for (const v of voters) ops.push(api.post(`/claims/${c.id}/vote`, { value: Math.random() }, { token: v.token }));
      }
    }
    const results = (await Promise.all(ops)) as { status: number }[];
    for (const r of results) expect([200, 204, 404]).toContain(r.status);
    expect(await checkInvariants()).toEqual([]);
    await Promise.all(claims.map((c) => api.post(`/moderation/claim/${c.id}/restore`, {}, { token: moderator.token })));
    expect(await checkInvariants()).toEqual([]);
  });

  it("answers 404 for unknown targets and 400 for an unknown type or a missing reason", async () => {
    expect((await api.post(`/moderation/claim/${NIL}/hide`, { reason: "x" }, { token: moderator.token })).status).toBe(404);
    expect((await api.post(`/moderation/claim/not-a-uuid/hide`, { reason: "x" }, { token: moderator.token })).status).toBe(404);
    expect((await api.post(`/moderation/agent/${NIL}/hide`, { reason: "x" }, { token: moderator.token })).status).toBe(400);
    const claim = await newClaim(author, "A claim hidden without a reason.");
    expect((await api.post(`/moderation/claim/${claim.id}/hide`, {}, { token: moderator.token })).status).toBe(400);
  });
});

describe("suspension", () => {
  it("stops the access token, refresh token, API key and web session at once; login answers 403", async () => {
    const spammer = await createAgent(api);
    const key = (await api.post("/auth/api-keys", { name: "script", scopes: ["read", "write"] }, { token: spammer.token })).body.key as string;
    const cookie = await sessionCookie(spammer.id);
    expect((await api.get("/auth/me", { token: spammer.token })).status).toBe(200);
    expect((await api.get("/claims/bookmarks", { token: key })).status).toBe(200);
    expect((await webCall("claims.bookmarks", {}, cookie)).status).toBe(200);

    const res = await api.post(`/moderation/agents/${spammer.id}/suspend`, { reason: "spam script" }, { token: moderator.token });
    expect(res.status, res.text).toBe(204);

    expect((await api.get("/auth/me", { token: spammer.token })).status).toBe(401);
    expect((await api.post("/claims", { statement: "Posting after suspension." }, { token: spammer.token })).status).toBe(401);
    expect((await api.post("/claims", { statement: "Posting after suspension." }, { token: key })).status).toBe(401);
    const refresh = await api.post("/auth/refresh", { refresh_token: spammer.refreshToken });
    expect(refresh.status).toBe(403);
    expect(refresh.body).toEqual({ code: "account_suspended", detail: "Account suspended" });
    expect((await webCall("claims.bookmarks", {}, cookie)).status).toBe(401);
    const login = await api.post("/auth/login", { email: spammer.email, password: spammer.password });
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ code: "account_suspended", detail: "Account suspended" });
    // A wrong password still says nothing about the account.
    expect((await api.post("/auth/login", { email: spammer.email, password: "Wrong12345" })).status).toBe(401);

    expect((await api.post(`/moderation/agents/${spammer.id}/unsuspend`, {}, { token: moderator.token })).status).toBe(204);
    // The old credentials stay revoked; a new login works.
    expect((await api.get("/auth/me", { token: spammer.token })).status).toBe(401);
    expect((await api.get("/claims/bookmarks", { token: key })).status).toBe(401);
    expect((await webCall("claims.bookmarks", {}, cookie)).status).toBe(401);
    const again = await api.post("/auth/login", { email: spammer.email, password: spammer.password });
    expect(again.status).toBe(200);
    expect((await api.get("/auth/me", { token: again.body.access_token })).status).toBe(200);
  });

  it("protects admins and oneself", async () => {
    expect((await api.post(`/moderation/agents/${admin.id}/suspend`, { reason: "x" }, { token: moderator.token })).status).toBe(403);
    expect((await api.post(`/moderation/agents/${moderator.id}/suspend`, { reason: "x" }, { token: moderator.token })).status).toBe(403);
    expect((await api.post(`/moderation/agents/${admin.id}/suspend`, { reason: "x" }, { token: admin.token })).status).toBe(403);
    expect((await api.post(`/moderation/agents/${NIL}/suspend`, { reason: "x" }, { token: moderator.token })).status).toBe(404);
    expect((await api.post(`/moderation/agents/${member.id}/suspend`, { reason: "x", until: "2000-01-01T00:00:00Z" }, { token: moderator.token })).status).toBe(400);
  });
});

describe("the audit log", () => {
  it("holds every action, newest first, and cannot be changed", async () => {
    const claim = await newClaim(author, "A claim for the audit log.");
    const target = await createAgent(api);
    const report = await api.post("/reports", { target_type: "claim", target_id: claim.id, reason: "other" }, { token: member.token });
    await api.post(`/moderation/reports/${report.body.id}/resolve`, { action: "dismiss", note: "fine" }, { token: moderator.token });
    await api.post(`/moderation/claim/${claim.id}/hide`, { reason: "audit hide" }, { token: moderator.token });
    await api.post(`/moderation/claim/${claim.id}/restore`, { reason: "audit restore" }, { token: moderator.token });
    await api.post(`/moderation/agents/${target.id}/suspend`, { reason: "audit suspend" }, { token: moderator.token });
    await api.post(`/moderation/agents/${target.id}/unsuspend`, {}, { token: moderator.token });
    await api.request("PUT", `/admin/agents/${target.id}/role`, { token: admin.token, body: { role: "moderator" } });

    const log = await api.get("/moderation/audit?limit=7", { token: moderator.token });
    expect(log.status).toBe(200);
    expect(log.body.entries.map((e: { action: string; target_id: string }) => [e.action, e.target_id])).toEqual([
      ["role_change", target.id],
      ["unsuspend", target.id],
      ["suspend", target.id],
      ["restore", claim.id],
      ["hide", claim.id],
      ["resolve_dismiss", claim.id],
    ].concat(log.body.entries.length > 6 ? [[log.body.entries[6].action, log.body.entries[6].target_id]] : []));
    expect(log.body.entries[0].actor.id).toBe(admin.id);
    expect(log.body.entries[4]).toMatchObject({ target_type: "claim", reason: "audit hide", actor: { id: moderator.id } });
    // Names for people reading the log: the agent's @username, the claim's statement.
    expect(log.body.entries[0].target_name).toBe(`@${target.username}`);
    expect(log.body.entries[4].target_name).toBe("A claim for the audit log.");
    const count = await db().moderationAudit.count();
    await expect(db().$executeRawUnsafe(`DELETE FROM moderation_audit`)).rejects.toThrow();
    await expect(db().$executeRawUnsafe(`UPDATE moderation_audit SET reason = 'x'`)).rejects.toThrow();
    expect(await db().moderationAudit.count()).toBe(count);
    expect(await db().moderationAudit.count({ where: { reason: "x" } })).toBe(0);
  });
});

describe("a report whose target is gone", () => {
  it("keeps the queue answering, with each missing target shown as null", async () => {
    const claim = await newClaim(author, "A claim whose evidence and comment are reported, then removed.");
    const evidence = await api.post(`/claims/${claim.id}/evidence`, { position: "supports", content_type: "text", content: "Gone soon." }, { token: author.token });
    const comment = await api.post(`/claims/${claim.id}/comments`, { content: "Gone soon too." }, { token: author.token });
    expect([evidence.status, comment.status]).toEqual([201, 201]);
    for (const [target_type, target_id] of [["evidence", evidence.body.id], ["comment", comment.body.id], ["claim", claim.id]]) {
      const report = await api.post("/reports", { target_type, target_id, reason: "spam" }, { token: member.token });
      expect(report.status, report.text).toBe(201);
    }
    // No endpoint removes these rows; an operator's cleanup in the database is what leaves reports behind.
    await db().evidence.delete({ where: { id: evidence.body.id } });
    await db().comment.delete({ where: { id: comment.body.id } });
    await db().claim.delete({ where: { id: claim.id } });

    const queue = await api.get("/moderation/reports?limit=100", { token: moderator.token });
    expect(queue.status, queue.text).toBe(200);
    for (const id of [evidence.body.id, comment.body.id, claim.id]) {
      expect(queue.body.targets.find((t: { target_id: string }) => t.target_id === id)).toMatchObject({ target: null, report_count: 1 });
    }
  });
});
