// The comments' budget (docs/security.md#budgets-what-one-request-may-cost): one answer holds at most
// COMMENTS_PER_ANSWER comments, its page and the embedded replies together. Before, a page of 100 full
// threads embedded 100·(1+3+9+27) = 4,000 comments (24 MB at 5,000 characters each, and a claim page
// of 27 MB that took the built server to the edge of its heap). Replies are embedded oldest first, so
// a comment that embeds fewer than it has embeds its oldest ones, and /replies from that offset
// continues without a gap or a repeat.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../server/db/client.ts";
import { COMMENTS_PER_ANSWER, REPLIES_EMBEDDED } from "../../server/services/comments.ts";
import { newClaim, quickAgent } from "./claims-fixtures.ts";
import { startApi, type TestApi } from "../helpers/api.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

interface Shown {
  id: string;
  reply_count: number;
  replies: Shown[];
}
const count = (comments: Shown[]): number => comments.reduce((n, c) => n + 1 + count(c.replies), 0);

describe("a page of full threads", () => {
  it(`holds at most ${COMMENTS_PER_ANSWER} comments, each embedding its oldest replies`, { timeout: 60_000 }, async () => {
    const author = await quickAgent();
    const claim = await newClaim(api, author.token);
    // 100 threads, each top-level comment with 4 replies: the old rule embedded 100 + 300 comments.
    const base = Date.now() - 3_600_000;
    const roots = Array.from({ length: 100 }, (_, i) => ({ id: randomUUID(), createdAt: new Date(base + i * 1000) }));
    await db().comment.createMany({
      data: roots.map((r) => ({ id: r.id, claimId: claim.id, authorId: author.id, content: `thread ${r.id}`, depth: 0, createdAt: r.createdAt })),
    });
    // Replies written in reverse thread order: the newest thread's replies are the oldest replies.
    const repliesOf = new Map<string, string[]>();
    await db().comment.createMany({
      data: roots.flatMap((r, i) =>
        Array.from({ length: REPLIES_EMBEDDED + 1 }, (_, k) => {
          const id = randomUUID();
          repliesOf.set(r.id, [...(repliesOf.get(r.id) ?? []), id]);
          return { id, claimId: claim.id, parentId: r.id, authorId: author.id, content: `reply ${k}`, depth: 1, createdAt: new Date(base + 200_000 + (99 - i) * 1000 + k) };
        }),
      ),
    });
    const page = await api.get(`/claims/${claim.id}/comments?limit=100`);
    expect(page.status, page.text).toBe(200);
    const threads = page.body.comments as Shown[];
    expect(threads).toHaveLength(100);
    expect(count(threads)).toBe(COMMENTS_PER_ANSWER);
    for (const t of threads) {
      expect(t.reply_count).toBe(REPLIES_EMBEDDED + 1);
      const embedded = t.replies.map((r) => r.id);
      const all = repliesOf.get(t.id)!;
      expect(embedded).toEqual(all.slice(0, embedded.length));
      // what the UI does for "Show N more replies": page on from the number embedded
      const rest = await api.get(`/claims/${claim.id}/comments/${t.id}/replies?limit=100&offset=${embedded.length}`);
      expect([...embedded, ...rest.body.replies.map((r: Shown) => r.id)]).toEqual(all);
    }
    // The newest threads' replies are the oldest: they got theirs, the oldest threads fewer.
    expect(threads.at(-1)!.replies).toHaveLength(REPLIES_EMBEDDED);
    expect(threads[0].replies).toHaveLength(0);
  });

  it("one comment still embeds its whole first replies", async () => {
    const author = await quickAgent();
    const claim = await newClaim(api, author.token);
    const top = await api.post(`/claims/${claim.id}/comments`, { content: "top" }, { token: author.token });
    for (let i = 0; i < REPLIES_EMBEDDED; i++) {
      const reply = await api.post(`/claims/${claim.id}/comments`, { content: `reply ${i}`, parent_id: top.body.id }, { token: author.token });
      expect(reply.status, reply.text).toBe(201);
    }
    const one = await api.get(`/comments/${top.body.id}`);
    expect(one.body.replies).toHaveLength(REPLIES_EMBEDDED);
  });
});
