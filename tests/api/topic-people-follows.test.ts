// Following topics and people (docs/features/following.md#topics-and-people) over real HTTP: a new claim
// with a followed tag or by a followed person reaches the follower's inbox saying who wrote it and what
// brought it; unfollowing stops it; the author and the unfollowed hear nothing; refusals; the inbox
// names who acted on a followed claim.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackground, stopBackground } from "../../server/jobs/index.ts";
import { readSql } from "../../server/db/client.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { eventually } from "../helpers/webhook-receiver.ts";

let api: TestApi;
let writer: TestAgent;
let reader: TestAgent;

beforeAll(async () => {
  api = await startApi();
  await startBackground();
  [writer, reader] = await Promise.all([createAgent(api), createAgent(api)]);
});
afterAll(async () => {
  await stopBackground();
  await api.close();
});

async function inbox(agent: TestAgent) {
  const res = await api.get("/notifications", { token: agent.token });
  expect(res.status, res.text).toBe(200);
  return res.body.notifications as any[];
}

async function newClaim(who: TestAgent, tags: string[]): Promise<string> {
  const res = await api.post("/claims", { statement: `A claim for followers ${Math.random()}`, tags }, { token: who.token });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe("following topics", () => {
  it("brings new claims with the tag to the inbox, naming the author; unfollowing stops it", async () => {
    const tag = `follow-topic-${Date.now()}`;
    const follow = await api.post(`/topics/${tag.toUpperCase()}/follow`, undefined, { token: reader.token });
    expect(follow.status, follow.text).toBe(200);
    expect(follow.body).toMatchObject({ tag, is_following: true });
    expect((await api.post(`/topics/${tag}/follow`, undefined, { token: reader.token })).body.created_at).toBe(follow.body.created_at);
    expect((await api.get("/follows", { token: reader.token })).body.topics).toEqual([{ tag, created_at: follow.body.created_at }]);

    const claim = await newClaim(writer, ["other", tag]);
    const unrelated = await newClaim(writer, ["other"]);
    const threads = await inbox(reader);
    const thread = threads.find((n) => n.claim.id === claim);
    expect(thread).toMatchObject({ source: "topic", new_claim: true, unread: true, actor: { id: writer.id, username: writer.username } });
    expect(threads.some((n) => n.claim.id === unrelated)).toBe(false);
    // the author hears nothing of their own claim
    expect((await inbox(writer)).some((n) => n.claim.id === claim)).toBe(false);

    expect((await api.request("DELETE", `/topics/${tag}/follow`, { token: reader.token })).status).toBe(204);
    const after = await newClaim(writer, [tag]);
    expect((await inbox(reader)).some((n) => n.claim.id === after)).toBe(false);
    expect((await api.get("/follows", { token: reader.token })).body.topics).toEqual([]);
  });

  it("refuses a malformed tag by name and no token", async () => {
    const bad = await api.post(`/topics/${encodeURIComponent(" science")}/follow`, undefined, { token: reader.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("tag");
    expect((await api.post("/topics/science/follow")).status).toBe(401);
  });
});

describe("following people", () => {
  it("brings the person's new claims (a person wins over a topic), and not after unfollowing", async () => {
    const follower = await createAgent(api);
    const res = await api.post(`/profiles/${writer.username}/follow`, undefined, { token: follower.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ agent_id: writer.id, is_following: true });
    const tag = `both-${Date.now()}`;
    expect((await api.post(`/topics/${tag}/follow`, undefined, { token: follower.token })).status).toBe(200);
    const claim = await newClaim(writer, [tag]);
    const threads = (await inbox(follower)).filter((n) => n.claim.id === claim);
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ source: "person", actor: { id: writer.id } });
    expect((await api.get("/follows", { token: follower.token })).body.people).toEqual([
      expect.objectContaining({ agent: expect.objectContaining({ id: writer.id }) }),
    ]);
    const exported = await api.get("/auth/me/export", { token: follower.token });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.people_follows).toEqual([{ agent_id: writer.id, created_at: expect.any(String) }]);
    expect(exported.body.topic_follows).toEqual([{ tag, created_at: expect.any(String) }]);

    expect((await api.request("DELETE", `/profiles/${writer.id}/follow`, { token: follower.token })).status).toBe(204);
    const later = await newClaim(writer, []);
    expect((await inbox(follower)).some((n) => n.claim.id === later)).toBe(false);
  });

  it("refuses following oneself (403) and an unknown person (404)", async () => {
    const self = await api.post(`/profiles/${reader.id}/follow`, undefined, { token: reader.token });
    expect(self.status).toBe(403);
    expect(self.body.code).toBe("forbidden");
    expect((await api.post("/profiles/00000000-0000-4000-8000-000000000000/follow", undefined, { token: reader.token })).status).toBe(404);
    expect((await api.request("DELETE", "/profiles/nobody_at_all_here/follow", { token: reader.token })).status).toBe(404);
  });
});

describe("the inbox names who acted", () => {
  it("on a followed claim: the last voter", async () => {
    const voter = await createAgent(api);
    const claim = await newClaim(writer, []);
    expect((await api.post(`/claims/${claim}/follow`, undefined, { token: reader.token })).status).toBe(200);
    expect((await api.post(`/claims/${claim}/vote`, { value: 0.3 }, { token: voter.token })).status).toBe(200);
    await eventually(async () => {
      const [row] = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM outbox_events WHERE fanned_out_at IS NULL`;
      return row.n === 0;
    });
    const thread = (await inbox(reader)).find((n) => n.claim.id === claim);
    expect(thread).toMatchObject({ source: "claim", new_claim: false, reasons: { votes: 1 }, actor: { id: voter.id, username: voter.username } });
  });
});

describe("account deletion", () => {
  it("removes the person's follows of topics and people and others' follows of them; threads they started stay without a name", async () => {
    const leaving = await createAgent(api);
    const fan = await createAgent(api);
    expect((await api.post(`/topics/leaving-${Date.now()}/follow`, undefined, { token: leaving.token })).status).toBe(200);
    expect((await api.post(`/profiles/${writer.id}/follow`, undefined, { token: leaving.token })).status).toBe(200);
    expect((await api.post(`/profiles/${leaving.id}/follow`, undefined, { token: fan.token })).status).toBe(200);
    const claim = await newClaim(leaving, []);
    expect((await inbox(fan)).find((n) => n.claim.id === claim)?.actor?.id).toBe(leaving.id);

    const res = await api.post("/auth/me/delete", { password: leaving.password }, { token: leaving.token });
    expect(res.status, res.text).toBe(204);
    const left = await readSql<{ n: number }>`
      SELECT ((SELECT count(*) FROM topic_follows WHERE agent_id = ${leaving.id}::uuid)
            + (SELECT count(*) FROM agent_follows WHERE follower_id = ${leaving.id}::uuid OR followee_id = ${leaving.id}::uuid)
            + (SELECT count(*) FROM notifications WHERE last_actor_id = ${leaving.id}::uuid))::int AS n`;
    expect(left[0]!.n).toBe(0);
    const thread = (await inbox(fan)).find((n) => n.claim.id === claim);
    expect(thread).toMatchObject({ source: "person", actor: null });
    expect((await api.get("/follows", { token: fan.token })).body.people).toEqual([]);
  });
});
