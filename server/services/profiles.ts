// Agent profiles (CONTRACT §6, §7): stats, learning score, expertise, activity timeline and the
// reputation journey. Every query is bounded by one agent's own rows (the (author|agent)_id indexes).
import { preparedSql, readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { notFound } from "../api/errors.ts";
import { isUuid, toAgent, type AgentRow } from "../api/schemas/common.ts";
import type { Profile, ReputationJourney, Timeline } from "../api/schemas/profiles.ts";
import { learningScore, type LearningScore, type ResolvedVote } from "../domain/learning.ts";
import { rankExpertise, type ExpertiseArea, type TagEngagement } from "../domain/expertise.ts";
import { fillTimeline, timelineDays, timelineStart, type TimelinePeriod, type TimelineRow } from "../domain/timeline.ts";

/** The agent named by `idOrUsername`: its id, or its username in any case. */
export async function findAgent(idOrUsername: string): Promise<AgentRow> {
  const where = isUuid(idOrUsername)
    ? Prisma.sql`id = ${idOrUsername}::uuid`
    : Prisma.sql`username_key = ${idOrUsername.toLowerCase()}`;
  const [agent] = await preparedSql<AgentRow>`
    SELECT id::text AS id, username, display_name AS "displayName", avatar_url AS "avatarUrl", bio, reputation,
           tier::text AS tier, created_at AS "createdAt"
    FROM agents WHERE ${where}`;
  if (!agent) throw notFound("Agent not found");
  return agent;
}

/** The agent's resolved votes (aligned = correct, opposed = incorrect) with their resolution times. */
async function resolvedVotes(agentId: string): Promise<ResolvedVote[]> {
  const rows = await readSql<{ resolved_at: Date; correct: boolean }>`
    SELECT c.resolved_at, (v.outcome = 'aligned') AS correct
    FROM claim_votes v JOIN claims c ON c.id = v.claim_id
    WHERE v.agent_id = ${agentId}::uuid AND v.outcome IN ('aligned', 'opposed') AND c.resolved_at IS NOT NULL`;
  return rows.map((r) => ({ resolvedAt: r.resolved_at, correct: r.correct }));
}

export async function learningScoreOf(agentId: string, now = new Date()): Promise<LearningScore> {
  return learningScore(await resolvedVotes(agentId), now);
}

/** Per tag: the agent's claims, evidence and claim votes on claims with it, and its resolved votes there. */
export async function expertiseOf(agentId: string): Promise<ExpertiseArea[]> {
  const rows = await readSql<{ tag: string; engagement_count: number; resolved: number; correct: number }>`
    SELECT tag, count(*)::int AS engagement_count, sum(resolved)::int AS resolved, sum(correct)::int AS correct
    FROM (
      SELECT unnest(c.tags) AS tag, 0 AS resolved, 0 AS correct
      FROM claims c WHERE c.author_id = ${agentId}::uuid
      UNION ALL
      SELECT unnest(c.tags), 0, 0
      FROM evidence e JOIN claims c ON c.id = e.claim_id WHERE e.author_id = ${agentId}::uuid
      UNION ALL
      SELECT unnest(c.tags),
             CASE WHEN v.outcome IN ('aligned', 'opposed') THEN 1 ELSE 0 END,
             CASE WHEN v.outcome = 'aligned' THEN 1 ELSE 0 END
      FROM claim_votes v JOIN claims c ON c.id = v.claim_id WHERE v.agent_id = ${agentId}::uuid
    ) engagement
    GROUP BY tag`;
  const engagement: TagEngagement[] = rows.map((r) => ({
    tag: r.tag,
    engagement_count: Number(r.engagement_count),
    resolved: Number(r.resolved),
    correct: Number(r.correct),
  }));
  return rankExpertise(engagement);
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
    SELECT (SELECT count(*)::int FROM claims WHERE author_id = ${id}::uuid) AS claims_authored,
           (SELECT count(*)::int FROM evidence WHERE author_id = ${id}::uuid) AS evidence_submitted,
           (SELECT count(*)::int FROM claim_votes WHERE agent_id = ${id}::uuid) AS votes_cast,
           (SELECT count(*)::int FROM agents WHERE reputation > ${agent.reputation}::float8) AS higher,
           (SELECT count(*)::int FROM agents) AS total_agents,
           LEAST(
             (SELECT min(created_at) FROM claims WHERE author_id = ${id}::uuid),
             (SELECT min(created_at) FROM evidence WHERE author_id = ${id}::uuid),
             (SELECT min(created_at) FROM claim_votes WHERE agent_id = ${id}::uuid),
             (SELECT min(created_at) FROM comments WHERE author_id = ${id}::uuid)
           ) AS first`;
  return row;
}

export async function getProfile(idOrUsername: string): Promise<Profile> {
  const agent = await findAgent(idOrUsername);
  const [counts, learning, expertise] = await Promise.all([
    profileCounts(agent),
    learningScoreOf(agent.id),
    expertiseOf(agent.id),
  ]);
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
    readSql<TimelineRow>`SELECT ${UTC_DAY} AS date, count(*)::int AS claims FROM claims
      WHERE author_id = ${agent.id}::uuid AND created_at >= ${since} GROUP BY 1`,
    readSql<TimelineRow>`SELECT ${UTC_DAY} AS date, count(*)::int AS evidence FROM evidence
      WHERE author_id = ${agent.id}::uuid AND created_at >= ${since} GROUP BY 1`,
    readSql<TimelineRow>`SELECT ${UTC_DAY} AS date, count(*)::int AS votes FROM claim_votes
      WHERE agent_id = ${agent.id}::uuid AND created_at >= ${since} GROUP BY 1`,
    readSql<TimelineRow>`SELECT ${UTC_DAY} AS date, count(*)::int AS comments FROM comments
      WHERE author_id = ${agent.id}::uuid AND created_at >= ${since} GROUP BY 1`,
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
