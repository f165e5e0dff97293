// Arguments (docs/features/arguments.md): claims under other claims as reasons for or against them,
// their relevance votes, the list with its balance, and the tree (JSON and Argdown).
//
// Impact is computed where it is read, in SQL (the list sorts by it): truth × relevance, truth being
// the child's bridged score when its bridging status is bridged_true/bridged_false, else its gradient;
// null while the argument has no relevance votes or the child no votes. Nothing here writes to the
// parent claim: the balance is shown, never fed into its gradient.
import { Prisma } from "../db/generated/client.ts";
import { readSql, sqlTransaction, type SqlTx } from "../db/client.ts";
import { badRequest, conflict, notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import {
  ONE_CHILD,
  TREE_CHILDREN_PER_NODE,
  type AddArgumentInput,
  type ArgumentList,
  type ArgumentOut,
  type ArgumentTree,
  type ArgumentUses,
  type ArgumentUsesInput,
  type Stance,
  type ListArgumentsInput,
  type TreeArgument,
  type TreeInput,
  TREE_MAX_ARGUMENTS,
  TREE_MAX_BYTES,
} from "../contract/arguments.ts";
import { argdown, MAX_ARGUMENT_DEPTH, relevanceAfter, tooDeep, type ArgdownNode } from "../domain/arguments.ts";
import { AUTHOR_COLUMNS, authorOf, type AuthorColumns } from "./author-columns.ts";
import { claimView, claimViews, type Claim } from "./claim-views.ts";
import { CLAIM_NOT_FOUND, refusingDuplicates } from "./claims.ts";
import { recordEvent } from "./outbox.ts";
import { visibleClaim } from "./visibility.ts";

export const ARGUMENT_NOT_FOUND = "Argument not found";
export const SELF_ARGUMENT = "arguments: a claim cannot stand under itself";
export const CYCLE = "arguments: would create a cycle";
export const TOO_DEEP = `arguments: deeper than ${MAX_ARGUMENT_DEPTH} levels`;
export const DUPLICATE_ARGUMENT = "arguments: this claim already stands under that claim";
/** Serialises changes of the argument graph, so that two links made at once cannot close a cycle. */
const ARGUMENT_GRAPH_LOCK = 72707370;

/** Relevance mean (0–1) of argument `g`; null without votes. */
const RELEVANCE = Prisma.raw(
  `CASE WHEN g.relevance_votes = 0 THEN NULL ELSE LEAST(1, GREATEST(0, g.relevance_sum / g.relevance_votes)) END`,
);
/** Impact of argument `g` with child claim `c` and its bridging row `cb`. */
const IMPACT = Prisma.raw(
  `CASE WHEN g.relevance_votes = 0 OR c.vote_count = 0 THEN NULL
        ELSE LEAST(1, GREATEST(0,
          (CASE WHEN cb.status::text IN ('bridged_true', 'bridged_false') AND cb.score IS NOT NULL THEN cb.score ELSE c.gradient END)
          * (g.relevance_sum / g.relevance_votes))) END`,
);
/** Arguments `g` with their child claim `c` and its bridging row `cb`. */
const ARGUMENTS_WITH_CHILD = Prisma.raw(
  `arguments g JOIN claims c ON c.id = g.child_claim_id LEFT JOIN claim_bridging cb ON cb.claim_id = c.id`,
);
const IMPACT_ORDER = Prisma.raw(`impact DESC NULLS LAST, created_at DESC, id DESC`);
const NEWEST_ORDER = Prisma.raw(`created_at DESC, id DESC`);

interface ArgumentRow extends AuthorColumns {
  id: string;
  parent_claim_id: string;
  child_claim_id: string;
  stance: ArgumentOut["stance"];
  created_at: Date;
  relevance_votes: number;
  relevance: number | null;
  impact: number | null;
  user_relevance: number | null;
}

/** Arguments as the API shows them, in the order of `ids`; those whose child is hidden are left out. */
export async function argumentViews(ids: readonly string[], viewerId: string | null): Promise<ArgumentOut[]> {
  if (ids.length === 0) return [];
  const rows = await readSql<ArgumentRow>`
    SELECT g.id::text AS id, g.parent_claim_id::text AS parent_claim_id, g.child_claim_id::text AS child_claim_id,
           g.stance::text AS stance, g.created_at, g.relevance_votes, ${RELEVANCE} AS relevance, ${IMPACT} AS impact,
           rv.value AS user_relevance, ${AUTHOR_COLUMNS}
    FROM ${ARGUMENTS_WITH_CHILD}
    JOIN agents a ON a.id = g.author_id
    LEFT JOIN relevance_votes rv ON rv.argument_id = g.id AND rv.agent_id = ${viewerId}::uuid
    WHERE g.id = ANY(${ids}::uuid[]) AND ${visibleClaim("c")}`;
  const claims = new Map((await claimViews([...new Set(rows.map((r) => r.child_claim_id))], viewerId)).map((c) => [c.id, c]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    const claim = r && claims.get(r.child_claim_id);
    if (!r || !claim) return [];
    return [
      {
        id: r.id,
        parent_claim_id: r.parent_claim_id,
        stance: r.stance,
        claim,
        relevance: { value: r.relevance === null ? null : Number(r.relevance), votes: Number(r.relevance_votes) },
        impact: r.impact === null ? null : Number(r.impact),
        author: authorOf(r),
        created_at: r.created_at.toISOString(),
        user_relevance: viewerId && r.user_relevance !== null ? Number(r.user_relevance) : null,
      },
    ];
  });
}

/** One argument (404 unless it, its child and its parent are visible). */
export async function getArgument({ argumentId, viewerId }: { argumentId: string; viewerId: string | null }): Promise<ArgumentOut> {
  if (!isUuid(argumentId)) throw notFound(ARGUMENT_NOT_FOUND);
  const [visible] = await readSql<{ id: string }>`
    SELECT g.id::text AS id FROM arguments g JOIN claims p ON p.id = g.parent_claim_id
    WHERE g.id = ${argumentId}::uuid AND ${visibleClaim("p")}`;
  const [argument] = visible ? await argumentViews([visible.id], viewerId) : [];
  if (!argument) throw notFound(ARGUMENT_NOT_FOUND);
  return argument;
}

// ---- adding an argument ----

/**
 * POST /claims/{claim_id}/arguments: links an existing claim, or writes a new one and links it, in one
 * transaction. The graph is changed by one transaction at a time (an advisory lock), so the cycle and
 * depth checks see every link made before.
 */
export async function addArgument(authorId: string, input: AddArgumentInput): Promise<ArgumentOut> {
  const parentId = input.claim_id;
  if (!isUuid(parentId)) throw notFound(CLAIM_NOT_FOUND);
  const linked = input.child_claim_id?.toLowerCase();
  if (linked !== undefined && linked === parentId) throw badRequest(SELF_ARGUMENT);
  const argumentId = await refusingDuplicates(input.statement ?? "", () =>
    sqlTransaction(async (tx) => {
      await tx.query(Prisma.sql`SELECT pg_advisory_xact_lock(${ARGUMENT_GRAPH_LOCK})`);
      const [parent] = await tx.query<{ id: string }>(Prisma.sql`
        SELECT c.id::text AS id FROM claims c WHERE c.id = ${parentId}::uuid AND ${visibleClaim("c")} FOR KEY SHARE`);
      if (!parent) throw notFound(CLAIM_NOT_FOUND);
      if ((linked === undefined) === (input.statement === undefined)) throw badRequest(ONE_CHILD);
      const childId = linked === undefined ? await insertChild(tx, authorId, input) : await lockChild(tx, linked);
      await assertLinkAllowed(tx, { parentId, childId });
      const [created] = await tx.query<{ id: string }>(Prisma.sql`
        INSERT INTO arguments (id, parent_claim_id, child_claim_id, stance, author_id)
        VALUES (gen_random_uuid(), ${parentId}::uuid, ${childId}::uuid, ${input.stance}::"ArgumentStance", ${authorId}::uuid)
        RETURNING id::text AS id`);
      await recordEvent(tx, { type: "claim.argument_added", claimId: parentId, actorId: authorId, argumentId: created.id });
      return created.id;
    }),
  );
  return getArgument({ argumentId, viewerId: authorId });
}

/**
 * The new claim of an argument written as a statement. Without tags of its own it takes its parent's:
 * a reason about a topic is in that topic, not a stray without one in Explore and the topic pages
 * (docs/features/arguments.md#adding-one).
 */
async function insertChild(tx: SqlTx, authorId: string, input: AddArgumentInput): Promise<string> {
  const tags = !input.tags?.length ? Prisma.sql`(SELECT p.tags FROM claims p WHERE p.id = ${input.claim_id}::uuid)` : Prisma.sql`${input.tags}::text[]`;
  const [row] = await tx.query<{ id: string }>(Prisma.sql`
    INSERT INTO claims (id, statement, complexity_tier, tags, author_id, updated_at)
    VALUES (gen_random_uuid(), ${input.statement!}, ${input.complexity_tier ?? "simple"}::"ComplexityTier",
            ${tags}, ${authorId}::uuid, now())
    RETURNING id::text AS id`);
  return row.id;
}

async function lockChild(tx: SqlTx, childId: string): Promise<string> {
  const [child] = isUuid(childId)
    ? await tx.query<{ id: string }>(Prisma.sql`
        SELECT c.id::text AS id FROM claims c WHERE c.id = ${childId}::uuid AND ${visibleClaim("c")} FOR KEY SHARE`)
    : [];
  if (!child) throw badRequest(`child_claim_id: claim ${childId} does not exist`);
  return child.id;
}

/**
 * 409 for the same child under the same parent; 400 when the child is above the parent already (a
 * cycle) or the longest chain through the new link would be deeper than MAX_ARGUMENT_DEPTH. Hidden
 * links count: they come back on restore. The walks stop one level past the limit.
 */
async function assertLinkAllowed(tx: SqlTx, { parentId, childId }: { parentId: string; childId: string }): Promise<void> {
  const [existing] = await tx.query<{ id: string }>(Prisma.sql`
    SELECT id::text AS id FROM arguments WHERE parent_claim_id = ${parentId}::uuid AND child_claim_id = ${childId}::uuid`);
  if (existing) throw conflict(DUPLICATE_ARGUMENT, "duplicate_argument");
  const bound = MAX_ARGUMENT_DEPTH + 1;
  const [down] = await tx.query<{ cycle: boolean; below: number }>(Prisma.sql`
    WITH RECURSIVE below(id, depth) AS (
      SELECT ${childId}::uuid, 0
      UNION
      SELECT g.child_claim_id, b.depth + 1 FROM arguments g JOIN below b ON g.parent_claim_id = b.id WHERE b.depth < ${bound}
    )
    SELECT coalesce(bool_or(id = ${parentId}::uuid), false) AS cycle, max(depth)::int AS below FROM below`);
  if (down.cycle) throw badRequest(CYCLE);
  const [up] = await tx.query<{ above: number }>(Prisma.sql`
    WITH RECURSIVE above(id, depth) AS (
      SELECT ${parentId}::uuid, 0
      UNION
      SELECT g.parent_claim_id, b.depth + 1 FROM arguments g JOIN above b ON g.child_claim_id = b.id WHERE b.depth < ${bound}
    )
    SELECT max(depth)::int AS above FROM above`);
  if (tooDeep(Number(up.above), Number(down.below))) throw badRequest(TOO_DEEP);
}

// ---- relevance ----

/** POST /arguments/{id}/relevance: one vote per agent, changeable; the running sums move in O(1). */
export async function voteRelevance({ agentId, argumentId, value }: { agentId: string; argumentId: string; value: number }): Promise<ArgumentOut> {
  await changeRelevance({ agentId, argumentId, next: value });
  return getArgument({ argumentId, viewerId: agentId });
}

/** DELETE /arguments/{id}/relevance: removing no vote changes nothing. */
export async function removeRelevance({ agentId, argumentId }: { agentId: string; argumentId: string }): Promise<void> {
  await changeRelevance({ agentId, argumentId, next: null });
}

async function changeRelevance(change: { agentId: string; argumentId: string; next: number | null }): Promise<void> {
  if (!isUuid(change.argumentId)) throw notFound(ARGUMENT_NOT_FOUND);
  await sqlTransaction((tx) => changeRelevanceIn(tx, change));
}

/**
 * Inside `tx`: the vote set or removed and the argument's running sums moved. The endpoints and
 * account deletion (which also removes votes on arguments between hidden claims: `hidden: "include"`)
 * both come here, so the sums move the same way.
 */
export async function changeRelevanceIn(
  tx: SqlTx,
  {
    agentId,
    argumentId,
    next,
    hidden = "refuse",
  }: {
    agentId: string;
    argumentId: string;
    /** The vote's new value; null removes it. */
    next: number | null;
    hidden?: "refuse" | "include";
  },
): Promise<void> {
  const visible = hidden === "include" ? Prisma.sql`true` : Prisma.sql`${visibleClaim("c")} AND ${visibleClaim("p")}`;
  const [argument] = await tx.query<{ id: string; relevance_sum: number; relevance_votes: number }>(Prisma.sql`
    SELECT g.id::text AS id, g.relevance_sum, g.relevance_votes
    FROM arguments g JOIN claims c ON c.id = g.child_claim_id JOIN claims p ON p.id = g.parent_claim_id
    WHERE g.id = ${argumentId}::uuid AND ${visible}
    FOR NO KEY UPDATE OF g`);
  if (!argument) throw notFound(ARGUMENT_NOT_FOUND);
  const [vote] = await tx.query<{ value: number }>(Prisma.sql`
    SELECT value FROM relevance_votes WHERE argument_id = ${argument.id}::uuid AND agent_id = ${agentId}::uuid`);
  const previous = vote ? Number(vote.value) : null;
  if (previous === next) return;
  if (next === null) {
    await tx.execute(Prisma.sql`DELETE FROM relevance_votes WHERE argument_id = ${argument.id}::uuid AND agent_id = ${agentId}::uuid`);
  } else {
    await tx.execute(Prisma.sql`
      INSERT INTO relevance_votes (argument_id, agent_id, value) VALUES (${argument.id}::uuid, ${agentId}::uuid, ${next}::float8)
      ON CONFLICT (argument_id, agent_id) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`);
  }
  const sums = relevanceAfter({ sum: Number(argument.relevance_sum), votes: Number(argument.relevance_votes) }, previous, next);
  await tx.execute(Prisma.sql`
    UPDATE arguments SET relevance_sum = ${sums.sum}::float8, relevance_votes = ${sums.votes}::int WHERE id = ${argument.id}::uuid`);
}

// ---- reading ----

async function assertVisibleClaim({ claimId, viewerId }: { claimId: string; viewerId: string | null }): Promise<Claim> {
  const claim = isUuid(claimId) ? await claimView({ claimId, viewerId }) : null;
  if (!claim) throw notFound(CLAIM_NOT_FOUND);
  return claim;
}

/** Σ impact of supports − Σ impact of opposes over a claim's visible arguments. */
async function balanceOf(claimId: string): Promise<number> {
  const [row] = await readSql<{ balance: number }>`
    SELECT coalesce(sum(CASE WHEN g.stance = 'supports' THEN impact ELSE -impact END), 0)::float8 AS balance
    FROM (SELECT g.stance, ${IMPACT} AS impact FROM ${ARGUMENTS_WITH_CHILD}
          WHERE g.parent_claim_id = ${claimId}::uuid AND ${visibleClaim("c")}) g`;
  return Number(row?.balance ?? 0);
}

/**
 * GET /claims/{claim_id}/arguments: a page by impact (nulls last) or newest first, the total and the balance.
 * One statement finds the claim (visible, or no row: 404), counts, pages and weighs its arguments
 * (a claim page reads it on every render: docs/benchmarks/2026-11-28-server-memory-and-first-views.md).
 */
export async function listArguments(input: ListArgumentsInput, viewerId: string | null): Promise<ArgumentList> {
  if (!isUuid(input.claim_id)) throw notFound(CLAIM_NOT_FOUND);
  const stance = input.stance ? Prisma.sql`AND stance = ${input.stance}::"ArgumentStance"` : Prisma.empty;
  const order = input.sort_by === "impact" ? IMPACT_ORDER : NEWEST_ORDER;
  const [row] = await readSql<{ total: number; ids: string[]; balance: number }>`
    WITH args AS MATERIALIZED (
      SELECT g.id, g.stance, g.created_at, ${IMPACT} AS impact FROM ${ARGUMENTS_WITH_CHILD}
      WHERE g.parent_claim_id = ${input.claim_id}::uuid AND ${visibleClaim("c")}
    )
    SELECT (SELECT count(*)::int FROM args WHERE true ${stance}) AS total,
           ARRAY(SELECT id::text FROM args WHERE true ${stance} ORDER BY ${order} LIMIT ${input.limit} OFFSET ${input.offset}) AS ids,
           -- balanceOf's sum over the same rows, every stance
           (SELECT coalesce(sum(CASE WHEN stance = 'supports' THEN impact ELSE -impact END), 0)::float8 FROM args) AS balance
    FROM claims p WHERE p.id = ${input.claim_id}::uuid AND ${visibleClaim("p")}`;
  if (!row) throw notFound(CLAIM_NOT_FOUND);
  return { arguments: await argumentViews(row.ids, viewerId), total: Number(row.total), balance: Number(row.balance) };
}

/**
 * GET /claims/{claim_id}/argues: the claims this one stands under as an argument, newest link first —
 * the way back from an argument's own page to where it argues. Hidden parents are left out.
 */
export async function listArgumentUses(input: ArgumentUsesInput, viewerId: string | null): Promise<ArgumentUses> {
  await assertVisibleClaim({ claimId: input.claim_id, viewerId });
  const [row] = await readSql<{ total: number; links: { id: string; stance: Stance; parent: string }[] | null }>`
    WITH uses AS MATERIALIZED (
      SELECT g.id, g.stance, g.parent_claim_id, g.created_at FROM arguments g JOIN claims p ON p.id = g.parent_claim_id
      WHERE g.child_claim_id = ${input.claim_id}::uuid AND ${visibleClaim("p")}
    )
    SELECT (SELECT count(*)::int FROM uses) AS total,
           (SELECT json_agg(json_build_object('id', id::text, 'stance', stance::text, 'parent', parent_claim_id::text) ORDER BY created_at DESC, id DESC)
            FROM (SELECT * FROM uses ORDER BY created_at DESC, id DESC LIMIT ${input.limit} OFFSET ${input.offset}) u) AS links`;
  const links = row.links ?? [];
  const parents = new Map((await claimViews([...new Set(links.map((l) => l.parent))], viewerId)).map((c) => [c.id, c]));
  return {
    uses: links.flatMap((l) => {
      const claim = parents.get(l.parent);
      return claim ? [{ id: l.id, stance: l.stance, claim }] : [];
    }),
    total: Number(row.total),
  };
}

/** An argument of the tree as its level's read finds it: enough to place it before its view is read. */
interface TreeRow {
  id: string;
  parent_claim_id: string;
  child_claim_id: string;
  stance: ArgumentOut["stance"];
}

/**
 * One level of the tree: the best TREE_CHILDREN_PER_NODE arguments of each of `parentIds` by impact, in
 * the answer's order (parents as given, then impact), at most `limit` rows. The parents' order comes from
 * WITH ORDINALITY, which the planner knows the rows arrive in, so it sorts each parent's rows apart
 * (an incremental sort) and the LIMIT stops the loop at the parent where the budget ends: a level reads
 * the parents it needs, not all of them (docs/features/arguments.md#the-trees-budget).
 */
async function levelArguments(parentIds: string[], limit: number): Promise<TreeRow[]> {
  if (parentIds.length === 0 || limit <= 0) return [];
  return readSql<TreeRow>(treeLevelSql(parentIds, limit));
}

/** levelArguments' statement (exported for the test that reads its plan: tests/api/argument-tree-budget.test.ts). */
export function treeLevelSql(parentIds: string[], limit: number): Prisma.Sql {
  return Prisma.sql`
    SELECT t.id::text AS id, p.id::text AS parent_claim_id, t.child_claim_id::text AS child_claim_id, t.stance::text AS stance
    FROM unnest(${parentIds}::uuid[]) WITH ORDINALITY AS p(id, ord)
    CROSS JOIN LATERAL (
      SELECT g.id, g.child_claim_id, g.stance, g.created_at, ${IMPACT} AS impact FROM ${ARGUMENTS_WITH_CHILD}
      WHERE g.parent_claim_id = p.id AND ${visibleClaim("c")}
      ORDER BY ${IMPACT_ORDER} LIMIT ${TREE_CHILDREN_PER_NODE}
    ) t
    ORDER BY p.ord, t.impact DESC NULLS LAST, t.created_at DESC, t.id DESC
    LIMIT ${limit}`;
}

/** Which of `claimIds` have a visible argument: one row at most is read for each. */
async function withArguments(claimIds: string[]): Promise<Set<string>> {
  if (claimIds.length === 0) return new Set();
  const rows = await readSql<{ id: string }>`
    SELECT p.id::text AS id FROM unnest(${claimIds}::uuid[]) AS p(id)
    WHERE EXISTS (SELECT 1 FROM arguments g JOIN claims c ON c.id = g.child_claim_id
                  WHERE g.parent_claim_id = p.id AND ${visibleClaim("c")})`;
  return new Set(rows.map((r) => r.id));
}

/** New claims whose views are read at once while a level is placed: a cut wastes at most this many. */
const VIEWS_PER_READ = 100;
/**
 * Bytes of the answer that its nodes' JSON does not hold, kept aside so the whole answer stays within
 * TREE_MAX_BYTES: `continue_at` (≤ one 62-byte entry per claim in full), a comma per node, the wrapper.
 */
const TREE_RESERVED_BYTES = (TREE_MAX_ARGUMENTS + 1) * 64 + TREE_MAX_ARGUMENTS + 200;
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

type Continuation = ArgumentTree["continue_at"][number];

/**
 * GET /claims/{claim_id}/tree: the claim and its arguments nested `depth` levels, read level by level
 * (docs/features/arguments.md#lists-and-the-tree). Each claim is shown in full once, at its first place
 * breadth-first in the listed order (the shallowest, so it keeps the most levels under it); elsewhere
 * its argument is a reference. So the answer has at most one node per link, and the budget
 * (TREE_MAX_ARGUMENTS nodes, TREE_MAX_BYTES) cuts it in the same order: the levels above come whole.
 */
export async function argumentTree(input: TreeInput, viewerId: string | null): Promise<ArgumentTree> {
  const root = await assertVisibleClaim({ claimId: input.claim_id, viewerId });
  const shown = new Set([root.id]);
  const childrenOf = new Map<string, TreeArgument[]>();
  let nodes = 0;
  let bytes = jsonBytes(root);
  const continueAt: Continuation[] = [];
  /** Claims in full whose arguments were never read: asked at the end whether they have any. */
  const unread: Continuation[] = [];
  let level = [root.id];
  for (let depth = 0; depth < input.depth && level.length; depth++) {
    const levelsLeft = input.depth - depth;
    const room = TREE_MAX_ARGUMENTS - nodes;
    if (room === 0) {
      unread.push(...level.map((id) => ({ claim_id: id, depth: levelsLeft })));
      break;
    }
    // One row more than there is room for tells whether the level goes on past the budget.
    const rows = await levelArguments(level, room + 1);
    const take = Math.min(rows.length, room);
    const next: string[] = [];
    let placed = 0;
    let full = false; // the bytes ran out before `take`
    while (placed < take && !full) {
      const batch = nextBatch({ rows, from: placed, end: take, shown });
      const views = new Map((await argumentViews(batch.fresh, viewerId)).map((v) => [v.id, v]));
      for (; placed < batch.end; placed++) {
        const row = rows[placed];
        const view = views.get(row.id);
        const node: TreeArgument | null = shown.has(row.child_claim_id)
          ? { id: row.id, stance: row.stance, claim_id: row.child_claim_id, repeated: true }
          : view
            ? { ...view, arguments: [] }
            : null; // hidden since the level was read
        if (!node) continue;
        const size = jsonBytes(node);
        if (bytes + size > TREE_MAX_BYTES - TREE_RESERVED_BYTES) {
          full = true;
          break;
        }
        bytes += size;
        nodes++;
        if (!childrenOf.has(row.parent_claim_id)) childrenOf.set(row.parent_claim_id, []);
        childrenOf.get(row.parent_claim_id)!.push(node);
        if (!("repeated" in node)) {
          shown.add(row.child_claim_id);
          if (levelsLeft > 1) next.push(row.child_claim_id);
        }
      }
    }
    const cut = full ? placed : rows.length > take ? take : -1;
    if (cut >= 0) {
      // The parent of the first argument left out has more; those after it and the claims just placed were not read.
      const partial = rows[cut].parent_claim_id;
      continueAt.push({ claim_id: partial, depth: levelsLeft });
      unread.push(...level.slice(level.indexOf(partial) + 1).map((id) => ({ claim_id: id, depth: levelsLeft })));
      unread.push(...next.map((id) => ({ claim_id: id, depth: levelsLeft - 1 })));
      break;
    }
    level = next;
  }
  const more = await withArguments(unread.map((u) => u.claim_id));
  continueAt.push(...unread.filter((u) => more.has(u.claim_id)));

  const build = (claimId: string): TreeArgument[] =>
    (childrenOf.get(claimId) ?? []).map((node) => ("repeated" in node ? node : { ...node, arguments: build(node.claim.id) }));
  return {
    claim: root,
    arguments: build(root.id),
    balance: await balanceOf(root.id),
    truncated: continueAt.length > 0,
    continue_at: continueAt,
  };
}

/**
 * The rows from `from` (before `end`) whose views one read fetches: up to VIEWS_PER_READ claims not
 * shown yet, each at its first row (a later row of the same claim becomes a reference).
 */
function nextBatch({ rows, from, end, shown }: { rows: TreeRow[]; from: number; end: number; shown: ReadonlySet<string> }): {
  fresh: string[];
  end: number;
} {
  const fresh: string[] = [];
  const claims = new Set<string>();
  let i = from;
  for (; i < end; i++) {
    const child = rows[i].child_claim_id;
    if (shown.has(child) || claims.has(child)) continue;
    if (fresh.length === VIEWS_PER_READ) break;
    claims.add(child);
    fresh.push(rows[i].id);
  }
  return { fresh, end: i };
}

/** The tree in Argdown syntax: a repeated claim by its title alone, and the cut noted at the end. */
export function treeArgdown(tree: ArgumentTree): string {
  const node = (claim: Claim, args: TreeArgument[]): ArgdownNode => ({
    id: claim.id,
    statement: claim.statement,
    arguments: args.map((a) => ({
      stance: a.stance,
      node: "repeated" in a ? { id: a.claim_id, repeated: true } : node(a.claim, a.arguments),
    })),
  });
  return argdown(
    node(tree.claim, tree.arguments),
    tree.continue_at.map((c) => ({ id: c.claim_id, depth: c.depth })),
  );
}
