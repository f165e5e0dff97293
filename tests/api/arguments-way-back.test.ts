// An argument finds its way (docs/features/arguments.md#adding-one, #where-it-argues): one written as a
// statement takes its parent's tags unless it brings its own; a claim lists the claims it argues for
// or against (GET /claims/{id}/argues, hidden parents left out); and the Markdown twin carries both
// the arguments, in plain words, and where the claim argues. On PGlite or DATABASE_URL's PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../server/config.ts";
import { db } from "../../server/db/client.ts";
import { claimMarkdownResponse } from "../../server/mcp/site.ts";
import { startApi, type TestApi } from "../helpers/api.ts";
import { newClaim, quickAgent, UNKNOWN_ID, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(() => api.close());

const uniq = () => randomUUID().slice(0, 8);
const ORIGIN = config().NEXTAUTH_URL ? new URL(config().NEXTAUTH_URL!).origin : "http://claims.example";

async function argue(parentId: string, body: Record<string, unknown>) {
  const res = await api.post(`/claims/${parentId}/arguments`, body, { token: author.token });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; claim: { id: string; tags: string[] } };
}

describe("an argument written as a statement", () => {
  it("takes its parent's tags when it brings none, and is found under them", async () => {
    const tag = `cats${uniq().replace(/[^a-z]/g, "")}`;
    const parent = await newClaim(api, author.token, { statement: `Cats sleep most of the day ${uniq()}`, tags: [tag, "biology"] });
    const reason = await argue(parent.id, { stance: "supports", statement: `Cats are crepuscular hunters ${uniq()}` });
    expect(reason.claim.tags.sort()).toEqual([tag, "biology"].sort());
    const listed = await api.get(`/claims?tags=${tag}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.claims.map((c: { id: string }) => c.id)).toContain(reason.claim.id);
  });

  it("keeps the tags it brings", async () => {
    const parent = await newClaim(api, author.token, { statement: `Tea is good for you ${uniq()}`, tags: ["health"] });
    const reason = await argue(parent.id, { stance: "opposes", statement: `Tea stains teeth ${uniq()}`, tags: ["dentistry"] });
    expect(reason.claim.tags).toEqual(["dentistry"]);
  });
});

describe("GET /claims/{claim_id}/argues", () => {
  it("lists the claims a claim argues for and against, newest link first, hidden parents left out", async () => {
    const child = await newClaim(api, author.token, { statement: `Street trees lower summer temperatures ${uniq()}` });
    const forIt = await newClaim(api, author.token, { statement: `Cities should plant trees ${uniq()}` });
    const against = await newClaim(api, author.token, { statement: `Cities need no more trees ${uniq()}` });
    const hiddenParent = await newClaim(api, author.token, { statement: `A parent to hide ${uniq()}` });
    const a1 = await argue(forIt.id, { stance: "supports", child_claim_id: child.id });
    const a2 = await argue(against.id, { stance: "opposes", child_claim_id: child.id });
    await argue(hiddenParent.id, { stance: "supports", child_claim_id: child.id });
    await db().claim.update({ where: { id: hiddenParent.id }, data: { hiddenAt: new Date(), hiddenReason: "spam" } });

    const res = await api.get(`/claims/${child.id}/argues`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.uses.map((u: any) => [u.id, u.stance, u.claim.id, u.claim.statement])).toEqual([
      [a2.id, "opposes", against.id, against.statement],
      [a1.id, "supports", forIt.id, forIt.statement],
    ]);
    const page = await api.get(`/claims/${child.id}/argues?limit=1&offset=1`);
    expect(page.body).toMatchObject({ total: 2, uses: [{ id: a1.id }] });
    // A claim that argues nowhere, and one that does not exist.
    expect((await api.get(`/claims/${forIt.id}/argues`)).body).toEqual({ uses: [], total: 0 });
    expect((await api.get(`/claims/${UNKNOWN_ID}/argues`)).status).toBe(404);
  });
});

describe("the Markdown twin", () => {
  it("carries the arguments in plain words and, on an argument's twin, the claims it argues", async () => {
    const parent = await newClaim(api, author.token, { statement: `Honey never spoils ${uniq()}` });
    const reason = await argue(parent.id, { stance: "supports", statement: `Honey is too sugary for microbes ${uniq()}` });
    const objection = await argue(parent.id, { stance: "opposes", statement: `Wet honey ferments ${uniq()}` });
    const rater = await quickAgent();
    expect((await api.post(`/claims/${reason.claim.id}/vote`, { value: 0.9 }, { token: rater.token })).status).toBe(200);
    expect((await api.post(`/arguments/${reason.id}/relevance`, { value: 0.75 }, { token: rater.token })).status).toBe(200);

    const md = await (await claimMarkdownResponse(new Request(`${ORIGIN}/claims/${parent.id}.md`), parent.id)).text();
    expect(md).toContain("## Arguments (2)");
    expect(md).toContain("The arguments lean towards the claim (1 for, 1 against; 1 of 2 weighed).");
    expect(md).toMatch(new RegExp(`### For\\n\\n- \\[Honey is too sugary for microbes [^\\]]*\\]\\(.*/claims/${reason.claim.id}\\.md\\) — too few votes; strongly relevant, by 1 rating; weight: strong \\(68 of 100\\)`));
    expect(md).toMatch(new RegExp(`### Against\\n\\n- \\[Wet honey ferments [^\\]]*\\]\\(.*/claims/${objection.claim.id}\\.md\\) — no votes; relevance not rated yet; no weight yet`));
    expect(md.indexOf("## Arguments")).toBeLessThan(md.indexOf("## Evidence"));

    const child = await (await claimMarkdownResponse(new Request(`${ORIGIN}/claims/${reason.claim.id}.md`), reason.claim.id)).text();
    expect(child).toContain(`## Argues\n\n- For: [${parent.statement}](${ORIGIN}/claims/${parent.id}.md)`);
    expect(child).toContain("## Arguments (0)\n\nNo arguments yet.");
  });
});
