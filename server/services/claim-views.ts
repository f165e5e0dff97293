// Claims as the API shows them (docs/api.md#shapes Claim), for any list: one query whatever the length of
// the list — the author, the parent ids and the caller's vote/bookmark/follow are joined in, never
// fetched claim by claim. Discovery, profiles and the web UI reuse this.
import { readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { isUuid } from "../contract/common.ts";
import { gradientFromSums } from "../domain/gradient.ts";
import type { Claim } from "../contract/claims.ts";
import { decidedBy, type ConsensusStatus } from "../domain/consensus.ts";
import { AUTHOR_COLUMNS, authorOf, type AuthorColumns } from "./author-columns.ts";
import { mayReveal, moderationInfo, visibleClaim } from "./visibility.ts";
import { CHECK_JSON } from "./check-views.ts";
import { toCheck, type CheckJson } from "./check-json.ts";

export type { Claim } from "../contract/claims.ts";

interface ClaimViewRow extends AuthorColumns {
  id: string;
  statement: string;
  complexity_tier: Claim["complexity_tier"];
  tags: string[];
  parent_ids: string[];
  gradient: number;
  weighted_sum: number;
  weight_total: number;
  people_weighted_sum: number;
  people_weight_total: number;
  people_vote_count: number;
  counted_weighted_sum: number;
  counted_weight_total: number;
  counted_vote_count: number;
  vote_count: number;
  evidence_count: number;
  created_at: Date;
  updated_at: Date;
  user_vote: number | null;
  is_bookmarked: boolean;
  is_following: boolean;
  hidden_at: Date | null;
  hidden_reason: string | null;
  bridging_score: number | null;
  bridging_polarity: number | null;
  bridging_status: Claim["bridging"]["status"];
  bridging_computed_at: Date | null;
  consensus_status: ConsensusStatus;
  consensus_since: Date | null;
  counted_histogram: number[];
  agents_histogram: number[];
  check_json: CheckJson | null;
}

/** The gradient of some of the claim's votes (their sums and count); null when there are none. */
function gradientOrNull(weightedSum: number, weightTotal: number, voteCount: number): number | null {
  if (voteCount <= 0) return null;
  return gradientFromSums({ weightedSum, weightTotal, voteCount });
}

/** gradient_people: the gradient of the people sums, null when no person has voted. */
function peopleGradient(row: ClaimViewRow): number | null {
  return gradientOrNull(Number(row.people_weighted_sum), Number(row.people_weight_total), Number(row.people_vote_count));
}

/**
 * The agents' view (docs/features/consensus.md#agents-beside-people): the automated accounts' votes are
 * every vote less the people's, so their sums are the difference of the two running sums.
 */
function agentsView(row: ClaimViewRow): Claim["agents"] {
  const voters = Number(row.vote_count) - Number(row.people_vote_count);
  return {
    voters,
    gradient: gradientOrNull(Number(row.weighted_sum) - Number(row.people_weighted_sum), Number(row.weight_total) - Number(row.people_weight_total), voters),
    histogram: row.agents_histogram.map(Number),
  };
}

/**
 * The view's statement over the claim rows that `from` names `c` (the claims table, or a statement's
 * CTE holding the row it has just written: the vote returns its claim this way, one round trip less),
 * as `viewerId` sees them. `userVote` replaces the viewer's stored vote (a statement does not see its
 * own writes). A NULL viewer joins nothing, so the caller fields come back empty and are reported as null.
 */
export function claimViewQuery({
  from,
  where,
  viewerId,
  userVote = Prisma.sql`v.value`,
}: {
  from: Prisma.Sql;
  where: Prisma.Sql;
  viewerId: string | null;
  userVote?: Prisma.Sql;
}): Prisma.Sql {
  return Prisma.sql`
    SELECT c.id::text AS id, c.statement, c.complexity_tier::text AS complexity_tier, c.tags,
           ARRAY(SELECT p.parent_id::text FROM claim_parents p JOIN claims pc ON pc.id = p.parent_id
                 WHERE p.claim_id = c.id AND ${visibleClaim("pc")} ORDER BY p.position, p.parent_id) AS parent_ids,
           c.gradient, c.weighted_sum, c.weight_total, c.people_weighted_sum, c.people_weight_total, c.people_vote_count,
           c.counted_weighted_sum, c.counted_weight_total, c.counted_vote_count,
           c.vote_count, c.evidence_count, c.created_at, c.updated_at,
           cb.score AS bridging_score, cb.polarity AS bridging_polarity,
           coalesce(cb.status::text, 'insufficient_data') AS bridging_status, cb.computed_at AS bridging_computed_at,
           c.consensus_status::text AS consensus_status, c.consensus_since, c.counted_histogram, c.agents_histogram,
           ${AUTHOR_COLUMNS},
           ${userVote} AS user_vote, (b.agent_id IS NOT NULL) AS is_bookmarked, (f.agent_id IS NOT NULL) AS is_following,
           c.hidden_at, c.hidden_reason, ${CHECK_JSON} AS check_json
    FROM ${from}
    JOIN agents a ON a.id = c.author_id
    LEFT JOIN claim_bridging cb ON cb.claim_id = c.id
    LEFT JOIN claim_votes v ON v.claim_id = c.id AND v.agent_id = ${viewerId}::uuid
    LEFT JOIN bookmarks b ON b.claim_id = c.id AND b.agent_id = ${viewerId}::uuid
    LEFT JOIN follows f ON f.claim_id = c.id AND f.agent_id = ${viewerId}::uuid
    WHERE ${where}`;
}

export type { ClaimViewRow };

export function toClaim(row: ClaimViewRow, hasViewer: boolean): Claim {
  const moderation = moderationInfo(row);
  return {
    ...(moderation ? { moderation } : {}),
    id: row.id,
    statement: row.statement,
    complexity_tier: row.complexity_tier,
    tags: row.tags,
    parent_ids: row.parent_ids,
    gradient: Number(row.gradient),
    gradient_people: peopleGradient(row),
    vote_count: Number(row.vote_count),
    evidence_count: Number(row.evidence_count),
    author: authorOf(row),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    user_vote: hasViewer && row.user_vote !== null ? Number(row.user_vote) : null,
    is_bookmarked: hasViewer ? row.is_bookmarked : null,
    is_following: hasViewer ? row.is_following : null,
    bridging: {
      score: row.bridging_score === null ? null : Number(row.bridging_score),
      polarity: row.bridging_polarity === null ? null : Number(row.bridging_polarity),
      status: row.bridging_status,
      computed_at: row.bridging_computed_at ? row.bridging_computed_at.toISOString() : null,
    },
    consensus: {
      status: row.consensus_status,
      voters: Number(row.counted_vote_count),
      decided_by: decidedBy(row.consensus_status, row.bridging_status),
      histogram: row.counted_histogram.map(Number),
      gradient: gradientOrNull(Number(row.counted_weighted_sum), Number(row.counted_weight_total), Number(row.counted_vote_count)),
      not_counted: {
        people: Number(row.people_vote_count) - Number(row.counted_vote_count),
        automated: Number(row.vote_count) - Number(row.people_vote_count),
      },
      since: row.consensus_since ? row.consensus_since.toISOString() : null,
    },
    agents: agentsView(row),
    check: toCheck(row.check_json),
  };
}

/**
 * The claims with these ids, in the order given (unknown ids are left out), as `viewerId` sees them:
 * `user_vote`, `is_bookmarked` and `is_following` are null when there is no viewer. A read outside
 * transactions (`readSql`): call it after a write commits, never inside one.
 */
export async function claimViews(
  ids: readonly string[],
  viewerId: string | null,
  opts: { includeHidden?: boolean } = {},
): Promise<Claim[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)].filter(isUuid);
  if (unique.length === 0) return [];
  const query = claimViewQuery({
    from: Prisma.sql`claims c`,
    where: Prisma.sql`c.id = ANY(${unique}::uuid[]) AND (${visibleClaim("c")} OR ${opts.includeHidden === true}::boolean)`,
    viewerId,
  });
  const rows = await readSql<ClaimViewRow>(query, { prepared: true });
  const byId = new Map(rows.map((r) => [r.id, toClaim(r, viewerId !== null)]));
  return ids.map((id) => byId.get(id.toLowerCase())).filter((c): c is Claim => c !== undefined);
}

/**
 * One claim as `viewerId` sees it, or null. Every list goes through claimViews, which leaves hidden
 * claims out unless `includeHidden` (the detail for its author and moderators, the moderation queue).
 */
export async function claimView({
  claimId,
  viewerId,
  includeHidden,
}: {
  claimId: string;
  viewerId: string | null;
  includeHidden?: boolean;
}): Promise<Claim | null> {
  const [claim] = await claimViews([claimId], viewerId, { includeHidden });
  return claim ?? null;
}

/**
 * The claim as its writer sees it once the write has committed, or null when it is gone. A moderator
 * may hide it in between: the acknowledged write stands, so the claim is still answered, without the
 * moderation details that only its author and moderators may see.
 */
export async function claimAfterWrite({ claimId, writerId }: { claimId: string; writerId: string }): Promise<Claim | null> {
  const claim = await claimView({ claimId, viewerId: writerId, includeHidden: true });
  if (!claim?.moderation || (await mayReveal({ viewerId: writerId, authorId: claim.author.id }))) return claim;
  const { moderation: _hiddenFromWriter, ...shown } = claim;
  return shown;
}
