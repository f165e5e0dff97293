// The account export in pages of bounded size (docs/features/accounts.md#export): a large account's
// export is never one big answer — each page stops at EXPORT_PAGE_ROWS rows or once its rows reach
// EXPORT_PAGE_BYTES of JSON — and walking next_cursor gives every row exactly once, in order, over
// REST and over the web's tRPC endpoint (what the settings page's "Download my data" walks).
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "../../app/api/trpc/[trpc]/route.ts";
import { db } from "../../server/db/client.ts";
import { startWebSession } from "../../server/services/web-sessions.ts";
import { CONTENT_MAX } from "../../server/contract/evidence.ts";
import { EXPORT_PAGE_BYTES, EXPORT_PAGE_ROWS, EXPORT_SECTIONS } from "../../server/contract/accounts.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { quickAgent } from "./claims-fixtures.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

type Page = Record<string, unknown> & { next_cursor: string | null };

/** Every page of the export over REST, with each answer's size in bytes. */
async function walk(token: string): Promise<{ pages: Page[]; sizes: number[] }> {
  const pages: Page[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
    const res: { status: number; text: string; body: Page } = await api.get<Page>(`/auth/me/export${query}`, { token });
    expect(res.status, res.text).toBe(200);
    pages.push(res.body);
    sizes.push(Buffer.byteLength(res.text));
    cursor = res.body.next_cursor;
    expect(pages.length).toBeLessThan(50);
  } while (cursor);
  return { pages, sizes };
}

const joined = (pages: Page[], section: string) => pages.flatMap((p) => p[section] as { id?: string }[]);

describe("GET /auth/me/export, page by page", () => {
  let writer: TestAgent;
  const evidenceIds: string[] = [];
  let ownClaims: string[];

  beforeAll(async () => {
    writer = await createAgent(api);
    const other = await quickAgent();
    // Evidence at the longest a text may be: 30 × 50,000 characters ≈ 1.5 MB of the account's own writing.
    for (let i = 0; i < 3; i++) {
      const claim = await api.post("/claims", { statement: `A claim with long evidence under it, number ${i}.` }, { token: other.token });
      for (let j = 0; j < 10; j++) {
        const content = `${i}-${j} `.padEnd(CONTENT_MAX, "é long evidence text ");
        const ev = await api.post(`/claims/${claim.body.id}/evidence`, { position: "supports", content_type: "text", content }, { token: writer.token });
        expect(ev.status, ev.text).toBe(201);
        evidenceIds.push(ev.body.id);
      }
    }
    // More claims than one page holds rows (written straight into the table: the triggers keep every counter).
    await db().$executeRawUnsafe(
      `INSERT INTO claims (id, statement, author_id, updated_at, created_at)
       SELECT gen_random_uuid(), 'A claim written in bulk by the exporting account, number ' || g, $1::uuid, now(), now() - (g || ' seconds')::interval
       FROM generate_series(1, ${EXPORT_PAGE_ROWS + 150}) g`,
      writer.id,
    );
    const rows = await db().claim.findMany({ where: { authorId: writer.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
    ownClaims = rows.map((r) => r.id);
    await api.post(`/claims/${ownClaims[0]}/bookmark`, undefined, { token: writer.token });
  }, 120_000);

  it("never answers more than one page's budget, and the pages hold every row once, in order", async () => {
    const { pages, sizes } = await walk(writer.token);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    // A page is at most EXPORT_PAGE_BYTES of rows plus the row that crossed it (≤ 50,000 characters,
    // at most 3 bytes each in UTF-8) plus the account and the page's own keys.
    const bound = EXPORT_PAGE_BYTES + 3 * CONTENT_MAX + 10_000;
    for (const size of sizes) expect(size).toBeLessThanOrEqual(bound);
    for (const page of pages) {
      const rows = EXPORT_SECTIONS.reduce((n, s) => n + (page[s] as unknown[]).length, 0);
      expect(rows).toBeLessThanOrEqual(EXPORT_PAGE_ROWS);
      expect(page.account).toMatchObject({ id: writer.id });
    }
    expect(pages[0].claims).toHaveLength(EXPORT_PAGE_ROWS);
    expect(joined(pages, "claims").map((c) => c.id)).toEqual(ownClaims);
    expect(joined(pages, "evidence").map((e) => e.id)).toEqual(evidenceIds);
    expect(joined(pages, "bookmarks")).toEqual([expect.objectContaining({ claim_id: ownClaims[0] })]);
    expect(pages.at(-1)!.next_cursor).toBeNull();
  });

  it("refuses a cursor it did not give with 400, naming the cursor", async () => {
    const forged = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString("base64url");
    const someId = "00000000-0000-4000-8000-000000000000";
    // Keys of the right shape that the database cannot take (a date past its range, a serial past int8) were a 500.
    const outOfRange = [forged(["claims", "0000-01-01T00:00:00.000Z", someId]), forged(["claims", "-271821-04-20T00:00:00.000Z", someId]), forged(["claims", "+275760-09-13T00:00:00.000Z", someId]), forged(["reputation_history", "9999999999999999999"])];
    for (const cursor of ["not-a-cursor", forged(["passwords"]), forged(["claims", "yesterday", "x"]), forged(["reputation_history", "1e9"]), forged({}), "x".repeat(400), ...outOfRange]) {
      const res = await api.get(`/auth/me/export?cursor=${encodeURIComponent(cursor)}`, { token: writer.token });
      expect(res.status, cursor).toBe(400);
      expect(res.body.detail).toMatch(/^cursor: /);
    }
  });

  it("pages the same way on the web's tRPC endpoint, as the settings page walks it", async () => {
    const sid = await startWebSession(writer.id);
    const cookie = `next-auth.session-token=${await encode({ token: { sub: writer.id, authTime: Math.floor(Date.now() / 1000), sid }, secret: process.env.NEXTAUTH_SECRET! })}`;
    let cursor: string | undefined;
    let evidence = 0;
    let pages = 0;
    do {
      const input = encodeURIComponent(JSON.stringify(cursor ? { cursor } : {}));
      const res = await GET(new Request(`http://localhost/api/trpc/account.export?input=${input}`, { headers: { cookie } }));
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(EXPORT_PAGE_BYTES + 3 * CONTENT_MAX + 10_000);
      const page = JSON.parse(text).result.data as Page;
      evidence += (page.evidence as unknown[]).length;
      cursor = page.next_cursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 50);
    expect(evidence).toBe(evidenceIds.length);
  });

  it("gives a small account everything in one page", async () => {
    const small = await createAgent(api);
    const claim = await api.post("/claims", { statement: "The only claim of a small account." }, { token: small.token });
    const other = await api.post("/claims", { statement: "A claim to add an argument under." }, { token: writer.token });
    const arg = await api.post(`/claims/${other.body.id}/arguments`, { stance: "supports", child_claim_id: claim.body.id }, { token: small.token });
    expect(arg.status, arg.text).toBe(201);
    await api.post(`/arguments/${arg.body.id}/relevance`, { value: 0.6 }, { token: small.token });
    await api.post("/reports", { target_type: "claim", target_id: other.body.id, reason: "spam" }, { token: small.token });
    const { pages } = await walk(small.token);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({
      next_cursor: null,
      claims: [expect.objectContaining({ id: claim.body.id })],
      arguments: [expect.objectContaining({ id: arg.body.id, parent_claim_id: other.body.id, stance: "supports" })],
      relevance_votes: [expect.objectContaining({ argument_id: arg.body.id, value: 0.6 })],
      reports: [expect.objectContaining({ target_id: other.body.id, reason: "spam" })],
    });
  });
});
