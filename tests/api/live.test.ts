// Live claim pages (docs/features/following.md): GET /api/live/claims/{id} streams Server-Sent Events when someone
// acts on the claim — within 2 seconds, across instances — with heartbeats, a per-IP cap on open
// streams, one unit of the rate limit per connection, and cleanup when the client goes away.
process.env.LIVE_HEARTBEAT_MS = "300";
process.env.LIVE_STREAMS_PER_IP = "3";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { callApi, kill9, startApiProcess, type ApiProcess } from "../helpers/api-process.ts";
import { openSse, startLiveServer, type LiveServer, type SseStream } from "../helpers/live.ts";
import { eventually } from "../helpers/webhook-receiver.ts";
import { openLiveStreams } from "../../server/api/live-stream.ts";
import { startBackground, stopBackground } from "../../server/jobs/index.ts";
import { startLiveSubscriber } from "../../server/queue/live.ts";
import { newClaim, quickAgent, UNKNOWN_ID, type Voter } from "./claims-fixtures.ts";

/** The contract's bound: an action shows on open pages within 2 seconds of being acknowledged. */
const LIVE_WITHIN_MS = 2000;
const onPostgres = !!process.env.DATABASE_URL;

let api: TestApi;
let live: LiveServer;
let author: Voter;
const streams: SseStream[] = [];

async function stream(claimId: string, headers?: Record<string, string>) {
  const s = await openSse(`${live.url}/api/live/claims/${claimId}`, headers);
  streams.push(s);
  return s;
}

beforeAll(async () => {
  api = await startApi();
  live = await startLiveServer();
  await startBackground();
  author = await quickAgent();
});
afterAll(async () => {
  for (const s of streams) s.close();
  await stopBackground();
  await live.close();
  await api.close();
});

describe("live stream of a claim", () => {
  it("another agent's vote, evidence and comment reach an open stream within 2 s; other claims' do not", async () => {
    const claim = await newClaim(api, author.token);
    const other = await newClaim(api, author.token);
    const s = await stream(claim.id);
    expect(s.status).toBe(200);
    expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(s.headers.get("cache-control")).toContain("no-transform");
    await eventually(async () => s.comments.includes("connected"));

    const voter = await quickAgent();
    expect((await api.post(`/claims/${other.id}/vote`, { value: 0.1 }, { token: voter.token })).status).toBe(200);
    expect((await api.post(`/claims/${claim.id}/vote`, { value: 0.9 }, { token: voter.token })).status).toBe(200);
    const voted = await s.waitFor((m) => m.event === "claim.voted", LIVE_WITHIN_MS);
    expect(JSON.parse(voted.data)).toMatchObject({ claim_id: claim.id, type: "claim.voted" });
    expect(voted.id).toBe(JSON.parse(voted.data).event_id);

    const ev = await api.post(`/claims/${claim.id}/evidence`, { position: "supports", content_type: "text", content: "A source that supports it." }, { token: voter.token });
    expect(ev.status, ev.text).toBe(201);
    await s.waitFor((m) => m.event === "claim.evidence_added", LIVE_WITHIN_MS);
    expect((await api.post(`/claims/${claim.id}/comments`, { content: "Seen live." }, { token: voter.token })).status).toBe(201);
    await s.waitFor((m) => m.event === "claim.commented", LIVE_WITHIN_MS);

    // Nothing of the other claim arrived on this one's stream.
    expect(s.messages.every((m) => JSON.parse(m.data).claim_id === claim.id)).toBe(true);
    s.close();
  });

  it("an idle stream sends heartbeat comments", async () => {
    const claim = await newClaim(api, author.token);
    const s = await stream(claim.id);
    await eventually(async () => s.comments.filter((c) => c === "heartbeat").length >= 2, 10_000);
    expect(s.messages).toEqual([]);
    s.close();
  });

  it("an unknown or malformed claim id is 404 with a detail", async () => {
    for (const id of [UNKNOWN_ID, "not-a-uuid"]) {
      const s = await stream(id);
      expect(s.status).toBe(404);
      expect(JSON.parse(await s.text())).toEqual({ code: "not_found", detail: "Claim not found" });
    }
  });

  it("caps open streams per IP, and frees a slot when a client goes away", async () => {
    await eventually(async () => openLiveStreams() === 0);
    const claim = await newClaim(api, author.token);
    const open = [await stream(claim.id), await stream(claim.id), await stream(claim.id)];
    expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
    const refused = await stream(claim.id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect(JSON.parse(await refused.text()).detail).toMatch(/live streams/);

    open[0].close();
    await eventually(async () => openLiveStreams() === 2);
    const again = await stream(claim.id);
    expect(again.status).toBe(200);
    for (const s of [...open, again]) s.close();
    await eventually(async () => openLiveStreams() === 0);
  });

  it("each connection costs one unit of the caller's rate limit", async () => {
    const claim = await newClaim(api, author.token);
    const agent = await quickAgent();
    const remaining = async () => Number((await api.get("/auth/me", { token: agent.token })).headers.get("x-ratelimit-remaining"));
    const before = await remaining();
    const s = await stream(claim.id, { authorization: `Bearer ${agent.token}` });
    expect(s.status).toBe(200);
    // One unit for the stream, one for the second /auth/me.
    expect(await remaining()).toBe(before - 2);
    s.close();
  });
});

describe.skipIf(!onPostgres)("across instances (PostgreSQL: NOTIFY, or Redis pub/sub when REDIS_URL is set)", () => {
  let writer: ApiProcess | undefined;
  afterAll(async () => {
    if (writer) await kill9(writer);
  });

  it("a vote acknowledged by another process reaches a stream served here within 2 s", { timeout: 120_000 }, async () => {
    // This process only listens; the other one takes the vote and relays its event.
    await stopBackground();
    await startLiveSubscriber();
    writer = await startApiProcess();
    const claim = await newClaim(api, author.token);
    const s = await stream(claim.id);
    await eventually(async () => s.comments.includes("connected"));
    const voter = await quickAgent();
    const res = await callApi(writer, "POST", `/claims/${claim.id}/vote`, voter.token, { value: 0.7 });
    expect(res.status, res.text).toBe(200);
    const voted = await s.waitFor((m) => m.event === "claim.voted", LIVE_WITHIN_MS);
    expect(JSON.parse(voted.data).claim_id).toBe(claim.id);
    s.close();
  });
});
