// Agent profiles (docs/api.md#scoring, #discovery): stats, learning score, expertise, activity timeline and the
// reputation journey. Every query is bounded by one agent's own rows (the (author|agent)_id indexes).
import { readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { notFound } from "../errors.ts";
import { isUuid, toAgent, type AgentRow } from "../contract/common.ts";
import type { Profile, ReputationJourney, Timeline } from "../contract/profiles.ts";
import { learningScore, resolvedVotesFrom, type LearningScore } from "../domain/learning.ts";
import { outcomeEngagement, rankExpertise, type ExpertiseArea, type TagEngagement } from "../domain/expertise.ts";
import type { RecordedOutcome } from "../domain/outcomes.ts";
import { fillTimeline, timelineDays, timelineStart, type TimelinePeriod, type TimelineRow } from "../domain/timeline.ts";
import { visibleClaim, visibleComment, visibleEvidence } from "./visibility.ts";
import { isTombstone, TOMBSTONE_AGENT_ID } from "../domain/accounts.ts";

/** The agent named by `idOrUsername`: its id, or its username in any case. */
export async function findAgent(idOrUsername: string): Promise<AgentRow> {
  // The tombstone of deleted accounts is nobody's profile (docs/features/accounts.md).
  if (isUuid(idOrUsername) && isTombstone(idOrUsername.toLowerCase())) throw notFound("Agent not found");
  const where = isUuid(idOrUsername)
    ? Prisma.sql`id = ${idOrUsername}::uuid`
    : Prisma.sql`username_key = ${idOrUsername.toLowerCase()}`;
  const [agent] = await readSql<AgentRow>(Prisma.sql`
    SELECT id::text AS id, username, display_name AS "displayName", avatar_url AS "avatarUrl", bio, reputation,
           tier::text AS tier, role::text AS role, automated, standing, created_at AS "createdAt"
    FROM agents WHERE ${where}`, { prepared: true });
  if (!agent) throw notFound("Agent not found");
  return agent;
}

/**
 * The agent's outcome records (vote_outcomes): written when a claim resolves and never changed, so
 * changing or deleting a vote afterwards does not move the learning score or expertise accuracy.
 */
async function outcomeRecords(agentId: string): Promise<RecordedOutcome[]> {
  const rows = await readSql<{ outcome: RecordedOutcome["outcome"]; resolved_at: Date; tags: string[] | null }>`
    SELECT outcome::text AS outcome, resolved_at, tags FROM vote_outcomes WHERE agent_id = ${agentId}::uuid`;
  return rows.map((r) => ({ outcome: r.outcome, resolvedAt: r.resolved_at, tags: r.tags ?? [] }));
}

export async function learningScoreOf(agentId: string, now = new Date()): Promise<LearningScore> {
  return learningScore(resolvedVotesFrom(await outcomeRecords(agentId)), now);
}

/**
 * Per tag: the agent's claims, evidence and claim votes on claims with it, and its resolved votes
 * there. A vote with an outcome record counts through the record (outcomeEngagement), also after it
 * was deleted; the vote rows add only the votes without one.
 */
export async function expertiseOf(
  agentId: string,
  records: Promise<RecordedOutcome[]> = outcomeRecords(agentId),
): Promise<ExpertiseArea[]> {
  const [rows, outcomes] = await Promise.all([
    readSql<{ tag: string; engagement_count: number }>`
      SELECT tag, count(*)::int AS engagement_count
      FROM (
        SELECT unnest(c.tags) AS tag FROM claims c WHERE c.author_id = ${agentId}::uuid AND ${visibleClaim("c")}
        UNION ALL
        SELECT unnest(c.tags) FROM evidence e JOIN claims c ON c.id = e.claim_id
        WHERE e.author_id = ${agentId}::uuid AND ${visibleEvidence("e")}
        UNION ALL
        SELECT unnest(c.tags) FROM claim_votes v JOIN claims c ON c.id = v.claim_id
        WHERE v.agent_id = ${agentId}::uuid AND ${visibleClaim("c")}
          AND NOT EXISTS (SELECT 1 FROM vote_outcomes o WHERE o.claim_id = v.claim_id AND o.agent_id = v.agent_id)
      ) engagement
      GROUP BY tag`,
    records,
  ]);
  const engagement: TagEngagement[] = rows.map((r) => ({
    tag: r.tag,
    engagement_count: Number(r.engagement_count),
    resolved: 0,
    correct: 0,
  }));
  return rankExpertise([...engagement, ...outcomeEngagement(outcomes)]);
}

interface ProfileCounts {
  claims_authored: number;
  evidence_submitted: number;
  votes_cast: number;
  higher: number;
  total_agents: number;
  first: Date | null;
}

/** The profile's numbers in one round trip, each an index scan bounded by the agent's own rows. */
async function profileCounts(agent: AgentRow): Promise<ProfileCounts> {
  const id = agent.id;
  const [row] = await readSql<ProfileCounts>`
    SELECT (SELECT count(*)::int FROM claims c WHERE c.author_id = ${id}::uuid AND ${visibleClaim("c")}) AS claims_authored,
           (SELECT count(*)::int FROM evidence e WHERE e.author_id = ${id}::uuid AND ${visibleEvidence("e")}) AS evidence_submitted,
           (SELECT count(*)::int FROM claim_votes v JOIN claims c ON c.id = v.claim_id
            WHERE v.agent_id = ${id}::uuid AND ${visibleClaim("c")}) AS votes_cast,
           (SELECT count(*)::int FROM agents WHERE reputation > ${agent.reputation}::float8 AND id <> ${TOMBSTONE_AGENT_ID}::uuid) AS higher,
           (SELECT count(*)::int FROM agents WHERE id <> ${TOMBSTONE_AGENT_ID}::uuid) AS total_agents,
           LEAST(
             (SELECT min(c.created_at) FROM claims c WHERE c.author_id = ${id}::uuid AND ${visibleClaim("c")}),
             (SELECT min(e.created_at) FROM evidence e WHERE e.author_id = ${id}::uuid AND ${visibleEvidence("e")}),
             (SELECT min(v.created_at) FROM claim_votes v JOIN claims c ON c.id = v.claim_id
              WHERE v.agent_id = ${id}::uuid AND ${visibleClaim("c")}),
             (SELECT min(c.created_at) FROM comments c WHERE c.author_id = ${id}::uuid AND ${visibleComment("c")})
           ) AS first`;
  return row;
}

export async function getProfile(idOrUsername: string): Promise<Profile> {
  const agent = await findAgent(idOrUsername);
  // One read of the outcome records serves the learning score and expertise.
  const records = outcomeRecords(agent.id);
  const [counts, expertise, resolved] = await Promise.all([profileCounts(agent), expertiseOf(agent.id, records), records]);
  const learning = learningScore(resolvedVotesFrom(resolved), new Date());
  const { higher, total_agents } = counts;
  return {
    ...toAgent(agent),
    first_activity_at: counts.first ? counts.first.toISOString() : null,
    stats: {
      claims_authored: counts.claims_authored,
      evidence_submitted: counts.evidence_submitted,
      votes_cast: counts.votes_cast,
      reputation_rank: higher + 1,
      total_agents,
      percentile: total_agents > 0 ? Math.round((1000 * (total_agents - higher)) / total_agents) / 10 : 0,
    },
    learning_score: learning,
    expertise,
  };
}

/** The UTC day of a row's created_at, as 'YYYY-MM-DD'. */
const UTC_DAY = Prisma.raw(`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`);

export async function getTimeline(idOrUsername: string, period: TimelinePeriod, now = new Date()): Promise<Timeline> {
  const agent = await findAgent(idOrUsername);
  const since = timelineStart(period, now);
  const [claims, evidence, votes, comments] = await Promise.all([
    readSql<TimelineRow>`SELECT ${UTC_DAY} AS date, count(*)::int AS claims FROM claims c
      WHERE author_id = ${agent.id}::uuid AND created_at >= ${since} AND ${visibleClaim("c")} GROUP BY 1`,
    readSql<TimelineRow>`SELECT ${UTC_DAY} AS date, count(*)::int AS evidence FROM evidence e
      WHERE author_id = ${agent.id}::uuid AND created_at >= ${since} AND ${visibleEvidence("e")} GROUP BY 1`,
    readSql<TimelineRow>`SELECT to_char(v.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*)::int AS votes
      FROM claim_votes v JOIN claims c ON c.id = v.claim_id
      WHERE v.agent_id = ${agent.id}::uuid AND v.created_at >= ${since} AND ${visibleClaim("c")} GROUP BY 1`,
    readSql<TimelineRow>`SELECT ${UTC_DAY} AS date, count(*)::int AS comments FROM comments c
      WHERE author_id = ${agent.id}::uuid AND created_at >= ${since} AND ${visibleComment("c")} GROUP BY 1`,
  ]);
  return { period, data: fillTimeline(timelineDays(period, now), [...claims, ...evidence, ...votes, ...comments]) };
}

export async function getReputationJourney(idOrUsername: string, limit: number): Promise<ReputationJourney> {
  const agent = await findAgent(idOrUsername);
  const events = await readSql<{ created_at: Date; reputation_score: number; delta: number; reason: ReputationJourney["history"][number]["reason"] }>`
    SELECT created_at, reputation_score, delta, reason::text AS reason FROM reputation_events
    WHERE agent_id = ${agent.id}::uuid ORDER BY id DESC LIMIT ${limit}`;
  return {
    current_score: agent.reputation,
    history: events.reverse().map((e) => ({
      date: e.created_at.toISOString(),
      reputation_score: e.reputation_score,
      delta: e.delta,
      reason: e.reason,
    })),
  };
}
