// The argument tree's budget (docs/features/arguments.md#the-trees-budget): a claim that stands under
// many parents is shown in full once and named elsewhere, so a layered DAG answers one node per link
// instead of one per path; past TREE_MAX_ARGUMENTS nodes or TREE_MAX_BYTES the answer says where it was
// cut and the rest can be read claim by claim; a level's read stops where the budget does.
// On PGlite or DATABASE_URL's PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../server/db/generated/client.ts";
import { readSql, sqlTransaction } from "../../server/db/client.ts";
import { TREE_MAX_ARGUMENTS, TREE_MAX_BYTES } from "../../server/contract/arguments.ts";
import { treeLevelSql } from "../../server/services/arguments.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { startApi, type TestApi } from "../helpers/api.ts";
import { quickAgent, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(() => api.close());

// ---- adversarial data, written the way the services write it, in a few statements ----

/** Claims inserted as an argument's new child is (services/arguments.ts, insertChild); ids in the given order. */
async function insertClaims(statements: string[]): Promise<string[]> {
  const ids = statements.map(() => randomUUID());
  await sqlTransaction((tx) =>
    tx.execute(Prisma.sql`
      INSERT INTO claims (id, statement, complexity_tier, tags, author_id, updated_at)
      SELECT id, statement, 'simple'::"ComplexityTier", '{}'::text[], ${author.id}::uuid, now()
      FROM unnest(${ids}::uuid[], ${statements}::text[]) AS s(id, statement)`),
  );
  return ids;
}

/** Every claim of `children` argues under every claim of `parents` (as addArgument inserts a link). */
async function linkAll(parents: string[], children: string[]): Promise<void> {
  const pairs = parents.flatMap((p) => children.map((c) => [p, c] as const));
  await sqlTransaction((tx) =>
    tx.execute(Prisma.sql`
      INSERT INTO arguments (id, parent_claim_id, child_claim_id, stance, author_id)
      SELECT gen_random_uuid(), p, c, (CASE WHEN n % 3 = 0 THEN 'opposes' ELSE 'supports' END)::"ArgumentStance", ${author.id}::uuid
      FROM unnest(${pairs.map((x) => x[0])}::uuid[], ${pairs.map((x) => x[1])}::uuid[]) WITH ORDINALITY AS l(p, c, n)`),
  );
}

/** A root claim and `levels` levels of `width` claims, each claim arguing under every claim of the level above. */
async function layeredDag(levels: number, width: number) {
  const tag = randomUUID().slice(0, 8);
  const [root] = await insertClaims([`Layered root ${tag}`]);
  const layers: string[][] = [];
  let above = [root];
  for (let k = 1; k <= levels; k++) {
    const layer = await insertClaims(Array.from({ length: width }, (_, i) => `Layer ${k} claim ${i} ${tag}`));
    await linkAll(above, layer);
    layers.push(layer);
    above = layer;
  }
  const [{ links }] = await readSql<{ links: number }>`
    SELECT count(*)::int AS links FROM arguments WHERE parent_claim_id = ANY(${[root, ...layers.flat()]}::uuid[])`;
  return { root, layers, links: Number(links) };
}

// ---- reading an answer ----

type Item = { id: string; stance: string; repeated?: true; claim_id?: string; claim?: { id: string }; arguments?: Item[] };
interface Placed {
  item: Item;
  depth: number;
  parent: string;
}

/** The answer's argument nodes breadth-first, in the listed order (the order that decides "first place"). */
function breadthFirst(tree: { claim: { id: string }; arguments: Item[] }): Placed[] {
  const out: Placed[] = [];
  let level: { parent: string; items: Item[] }[] = [{ parent: tree.claim.id, items: tree.arguments }];
  for (let depth = 1; level.length; depth++) {
    const next: typeof level = [];
    for (const { parent, items } of level) {
      for (const item of items) {
        out.push({ item, depth, parent });
        if (!item.repeated) next.push({ parent: item.claim!.id, items: item.arguments ?? [] });
      }
    }
    level = next;
  }
  return out;
}

const childOf = (item: Item) => (item.repeated ? item.claim_id! : item.claim!.id);

/** Each claim in full exactly once, at its first place breadth-first; every other place a bare reference. */
function expectEachClaimOnce(tree: { claim: { id: string }; arguments: Item[] }, placed: Placed[]) {
  const full = new Map<string, number>([[tree.claim.id, 1]]);
  for (const { item } of placed) {
    if (item.repeated) {
      expect(Object.keys(item).sort()).toEqual(["claim_id", "id", "repeated", "stance"]);
      expect(item.repeated).toBe(true);
      expect(full.has(item.claim_id!), `${item.claim_id} is referred to before it is shown`).toBe(true);
    } else {
      expect(full.has(item.claim!.id), `${item.claim!.id} shown in full twice`).toBe(false);
      full.set(item.claim!.id, 1);
      expect(Array.isArray(item.arguments)).toBe(true);
    }
  }
  expect(new Set(placed.map((p) => p.item.id)).size, "an argument listed twice").toBe(placed.length);
  return new Set(full.keys());
}

describe("a layered DAG (every claim of a level under every claim of the level above)", () => {
  it("answers one node per link: each claim in full once, repeated ones as references, a bounded size", async () => {
    const dag = await layeredDag(4, 10); // 10 + 3 × 100 = 310 links; one node per path would be 11,110
    expect(dag.links).toBe(310);
    const res = await api.get(`/claims/${dag.root}/tree?depth=4`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const placed = breadthFirst(res.body);
    expect(placed.length + 1).toBeLessThanOrEqual(dag.links + 1);
    expect(placed.length).toBeLessThanOrEqual(TREE_MAX_ARGUMENTS);
    expect(placed.length).toBe(dag.links); // every link within 4 levels, each once
    const shown = expectEachClaimOnce(res.body, placed);
    expect(shown).toEqual(new Set([dag.root, ...dag.layers.flat()]));
    // First place is the shallowest: layer k's claims are shown in full at depth k.
    for (const { item, depth } of placed) if (!item.repeated) expect(dag.layers[depth - 1]).toContain(item.claim!.id);
    expect(placed.filter((p) => p.item.repeated)).toHaveLength(310 - 40);
    expect(res.body).toMatchObject({ truncated: false, continue_at: [] });
    // 41 claims in full and 270 references (one node per path was 14 MB in the review).
    expect(Buffer.byteLength(res.text)).toBeLessThan(150_000);

    const text = await api.get(`/claims/${dag.root}/tree?depth=4&format=argdown`);
    expect(text.status).toBe(200);
    const lines = text.text.trimEnd().split("\n");
    expect(lines).toHaveLength(dag.links + 1);
    const title = (id: string) => `[c${id.replaceAll("-", "").slice(0, 16)}]`;
    for (const id of shown) expect(lines.filter((l) => l.includes(`${title(id)}: `)), id).toHaveLength(1);
    expect(lines.filter((l) => /^\s+[+-] \[c[0-9a-f]{16}\]$/.test(l))).toHaveLength(310 - 40);
    expect(Buffer.byteLength(text.text)).toBeLessThan(30_000);
  });

  it("past the budget: at most TREE_MAX_ARGUMENTS nodes, truncated, and continue_at reads the rest claim by claim", async () => {
    const dag = await layeredDag(4, 20); // 20 + 3 × 400 = 1,220 links
    expect(dag.links).toBe(1220);
    const res = await api.get(`/claims/${dag.root}/tree?depth=4`);
    expect(res.status).toBe(200);
    const placed = breadthFirst(res.body);
    expect(placed).toHaveLength(TREE_MAX_ARGUMENTS);
    expectEachClaimOnce(res.body, placed);
    expect(res.body.truncated).toBe(true);
    // The levels above come whole: 20 + 400 + 400, then 180 of the fourth level's 400.
    expect([1, 2, 3, 4].map((d) => placed.filter((p) => p.depth === d).length)).toEqual([20, 400, 400, 180]);
    // continue_at: the claims shown in full at depth 3 whose arguments are missing, one level left under each.
    const fullAt3 = placed.filter((p) => p.depth === 3 && !p.item.repeated).map((p) => p.item.claim!.id);
    const listedUnder = (id: string) => placed.filter((p) => p.parent === id).length;
    const expected = fullAt3.filter((id) => listedUnder(id) < 20).map((id) => ({ claim_id: id, depth: 1 }));
    expect(expected).toHaveLength(11);
    expect(res.body.continue_at).toEqual(expected);
    expect(Buffer.byteLength(res.text)).toBeLessThan(TREE_MAX_BYTES);

    const seen = new Set(placed.map((p) => p.item.id));
    for (const { claim_id, depth } of res.body.continue_at) {
      const more = await api.get(`/claims/${claim_id}/tree?depth=${depth}`);
      expect(more.body.truncated).toBe(false);
      for (const p of breadthFirst(more.body)) seen.add(p.item.id);
    }
    const [{ ids }] = await readSql<{ ids: string[] }>`
      SELECT array_agg(id::text) AS ids FROM arguments WHERE parent_claim_id = ANY(${[dag.root, ...dag.layers.flat()]}::uuid[])`;
    expect(seen).toEqual(new Set(ids));

    const text = await api.get(`/claims/${dag.root}/tree?depth=4&format=argdown`);
    const lines = text.text.trimEnd().split("\n");
    expect(lines.filter((l) => /^\s+[+-] \[c/.test(l))).toHaveLength(TREE_MAX_ARGUMENTS);
    expect(text.text).toContain("// Truncated");
    for (const c of res.body.continue_at) expect(text.text).toContain(`${c.claim_id} depth=1`);

    // Three levels fit: the same data answers whole.
    const three = await api.get(`/claims/${dag.root}/tree?depth=3`);
    expect(breadthFirst(three.body)).toHaveLength(820);
    expect(three.body).toMatchObject({ truncated: false, continue_at: [] });
    expect(await checkInvariants()).toEqual([]);
  });
});

describe("the byte budget", () => {
  it("cuts long statements at TREE_MAX_BYTES, in the same order, and names the claim whose arguments were left out", async () => {
    const tag = randomUUID().slice(0, 8);
    const long = (i: number) => `${tag} ${i} ${"€".repeat(4980)}`; // 15 KB of UTF-8 each
    const fifty = (from: number) => insertClaims(Array.from({ length: 50 }, (_, i) => long(from + i)));
    const [root] = await insertClaims([`Long statements' root ${tag}`]);
    const [top, middle, low] = [await fifty(0), await fifty(100), await fifty(200)];
    await linkAll([root], top);
    await linkAll([top[7]], middle);
    await linkAll([middle[3]], low); // 150 claims of 15 KB: 2.25 MB in full

    const res = await api.get(`/claims/${root}/tree?depth=3`);
    expect(res.status).toBe(200);
    const placed = breadthFirst(res.body);
    expectEachClaimOnce(res.body, placed);
    expect([1, 2].map((d) => placed.filter((p) => p.depth === d).length)).toEqual([50, 50]);
    expect(placed.length).toBeLessThan(150);
    expect(res.body.truncated).toBe(true);
    expect(res.body.continue_at).toEqual([{ claim_id: middle[3], depth: 1 }]);
    expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(TREE_MAX_BYTES);

    const text = await api.get(`/claims/${root}/tree?depth=3&format=argdown`);
    expect(Buffer.byteLength(text.text)).toBeLessThanOrEqual(TREE_MAX_BYTES);
    expect(text.text).toContain(`${middle[3]} depth=1`);
  });
});

describe("a level's read", () => {
  it("stops where the budget does: the parents read follow the rows taken, not the parents given", async () => {
    const tag = randomUUID().slice(0, 8);
    const parents = await insertClaims(Array.from({ length: 200 }, (_, i) => `Many parents ${i} ${tag}`));
    const children = await insertClaims(Array.from({ length: 10 }, (_, i) => `Shared child ${i} ${tag}`));
    await linkAll(parents, children); // 2,000 links
    const limit = 51; // 5 parents whole and one row of the sixth
    const rows = await readSql<{ parent_claim_id: string }>(treeLevelSql(parents, limit));
    expect(rows).toHaveLength(limit);
    expect(new Set(rows.map((r) => r.parent_claim_id))).toEqual(new Set(parents.slice(0, 6)));

    const [plan] = await readSql<{ "QUERY PLAN": any }>(Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${treeLevelSql(parents, limit)}`);
    // The parents the loop takes from the list (the unnest's rows), each of whose arguments it then reads and ranks.
    let parentsRead = 0;
    const visit = (node: any) => {
      if (node["Node Type"] === "Function Scan") parentsRead += node["Actual Rows"] * node["Actual Loops"];
      for (const child of node.Plans ?? []) visit(child);
    };
    visit(plan["QUERY PLAN"][0].Plan);
    // The six it needs and one more at most (the sort of a parent's rows ends when the next parent's begin); not the 200 given.
    expect(parentsRead).toBeGreaterThanOrEqual(6);
    expect(parentsRead).toBeLessThanOrEqual(7);
  });
});
