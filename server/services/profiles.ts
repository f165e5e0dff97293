// Agent profiles (CONTRACT §6, §7): stats, learning score, expertise, activity timeline and the
// reputation journey. Every query is bounded by one agent's own rows (the (author|agent)_id indexes).
import { db } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { notFound } from "../api/errors.ts";
import { agentSelect, isUuid, toAgent, type AgentRow } from "../api/schemas/common.ts";
import type { Profile, ReputationJourney, Timeline } from "../api/schemas/profiles.ts";
import { learningScore, type LearningScore, type ResolvedVote } from "../domain/learning.ts";
import { rankExpertise, type ExpertiseArea, type TagEngagement } from "../domain/expertise.ts";
import { fillTimeline, timelineDays, timelineStart, type TimelinePeriod, type TimelineRow } from "../domain/timeline.ts";

/** The agent named by `idOrUsername`: its id, or its username in any case. */
export async function findAgent(idOrUsername: string): Promise<AgentRow> {
  const agent = isUuid(idOrUsername)
    ? await db().agent.findUnique({ where: { id: idOrUsername }, select: agentSelect })
    : await db().agent.findUnique({ where: { usernameKey: idOrUsername.toLowerCase() }, select: agentSelect });
  if (!agent) throw notFound("Agent not found");
  return agent;
}

/** The agent's resolved votes (aligned = correct, opposed = incorrect) with their resolution times. */
async function resolvedVotes(agentId: string): Promise<ResolvedVote[]> {
  const rows = await db().$queryRaw<{ resolved_at: Date; correct: boolean }[]>`
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
  const rows = await db().$queryRaw<{ tag: string; engagement_count: number; resolved: number; correct: number }[]>`
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

async function firstActivityAt(agentId: string): Promise<Date | null> {
  const [row] = await db().$queryRaw<{ first: Date | null }[]>`
    SELECT LEAST(
      (SELECT min(created_at) FROM claims WHERE author_id = ${agentId}::uuid),
      (SELECT min(created_at) FROM evidence WHERE author_id = ${agentId}::uuid),
      (SELECT min(created_at) FROM claim_votes WHERE agent_id = ${agentId}::uuid),
      (SELECT min(created_at) FROM comments WHERE author_id = ${agentId}::uuid)
    ) AS first`;
  return row?.first ?? null;
}

export async function getProfile(idOrUsername: string): Promise<Profile> {
  const agent = await findAgent(idOrUsername);
  const id = agent.id;
  const [claimsAuthored, evidenceSubmitted, votesCast, higher, totalAgents, first, learning, expertise] = await Promise.all([
    db().claim.count({ where: { authorId: id } }),
    db().evidence.count({ where: { authorId: id } }),
    db().claimVote.count({ where: { agentId: id } }),
    db().agent.count({ where: { reputation: { gt: agent.reputation } } }),
    db().agent.count(),
    firstActivityAt(id),
    learningScoreOf(id),
    expertiseOf(id),
  ]);
  const atOrBelow = totalAgents - higher;
  return {
    ...toAgent(agent),
    first_activity_at: first ? first.toISOString() : null,
    stats: {
      claims_authored: claimsAuthored,
      evidence_submitted: evidenceSubmitted,
      votes_cast: votesCast,
      reputation_rank: higher + 1,
      total_agents: totalAgents,
      percentile: totalAgents > 0 ? Math.round((1000 * atOrBelow) / totalAgents) / 10 : 0,
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
    db().$queryRaw<TimelineRow[]>`SELECT ${UTC_DAY} AS date, count(*)::int AS claims FROM claims
      WHERE author_id = ${agent.id}::uuid AND created_at >= ${since} GROUP BY 1`,
    db().$queryRaw<TimelineRow[]>`SELECT ${UTC_DAY} AS date, count(*)::int AS evidence FROM evidence
      WHERE author_id = ${agent.id}::uuid AND created_at >= ${since} GROUP BY 1`,
    db().$queryRaw<TimelineRow[]>`SELECT ${UTC_DAY} AS date, count(*)::int AS votes FROM claim_votes
      WHERE agent_id = ${agent.id}::uuid AND created_at >= ${since} GROUP BY 1`,
    db().$queryRaw<TimelineRow[]>`SELECT ${UTC_DAY} AS date, count(*)::int AS comments FROM comments
      WHERE author_id = ${agent.id}::uuid AND created_at >= ${since} GROUP BY 1`,
  ]);
  return { period, data: fillTimeline(timelineDays(period, now), [...claims, ...evidence, ...votes, ...comments]) };
}

export async function getReputationJourney(idOrUsername: string, limit: number): Promise<ReputationJourney> {
  const agent = await findAgent(idOrUsername);
  const events = await db().reputationEvent.findMany({
    where: { agentId: agent.id },
    orderBy: { id: "desc" },
    take: limit,
    select: { createdAt: true, reputationScore: true, delta: true, reason: true },
  });
  return {
    current_score: agent.reputation,
    history: events.reverse().map((e) => ({
      date: e.createdAt.toISOString(),
      reputation_score: e.reputationScore,
      delta: e.delta,
      reason: e.reason,
    })),
  };
}
