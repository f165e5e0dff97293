// Request and response shapes of the profile endpoints (docs/api.md#scoring, #discovery).
import { z } from "zod";
import { agentSchema, boundedInt, isoDate, pathId } from "./common.ts";
import { DEFAULT_TIMELINE_PERIOD, TIMELINE_PERIODS, type TimelinePeriod } from "../domain/timeline.ts";

export const profileInput = z.object({
  /** The agent's id or username (case-insensitive). */
  agent_id: pathId,
});

export const timelineInput = z.object({
  agent_id: pathId,
  period: z
    .enum(TIMELINE_PERIODS as [TimelinePeriod, ...TimelinePeriod[]], {
      message: `period: must be one of ${TIMELINE_PERIODS.join(", ")}`,
    })
    .default(DEFAULT_TIMELINE_PERIOD),
});

export const reputationJourneyInput = z.object({
  agent_id: pathId,
  limit: boundedInt("limit", 1, 200, 50),
});

export const profileStatsSchema = z
  .object({
    claims_authored: z.number().int(),
    evidence_submitted: z.number().int(),
    /** Votes on claims. */
    votes_cast: z.number().int(),
    /** 1 + the number of agents with a higher reputation (ties share a rank). */
    reputation_rank: z.number().int(),
    total_agents: z.number().int(),
    /** Share of agents whose reputation is at most this agent's, 0–100, one decimal. */
    percentile: z.number(),
  })
  .meta({ id: "ProfileStats" });

export const learningScoreSchema = z
  .object({
    score: z.number().min(0).max(1),
    accuracy_rate: z.number().nullable(),
    total_resolved_votes: z.number().int(),
    correct_resolved_votes: z.number().int(),
    insight: z.string(),
  })
  .meta({ id: "LearningScore" });

export const expertiseAreaSchema = z
  .object({ tag: z.string(), engagement_count: z.number().int(), accuracy: z.number().nullable() })
  .meta({ id: "ExpertiseArea" });

export const profileSchema = agentSchema
  .extend({
    /** The agent's first claim, evidence, vote or comment; null before any. */
    first_activity_at: isoDate.nullable(),
    stats: profileStatsSchema,
    learning_score: learningScoreSchema,
    expertise: z.array(expertiseAreaSchema),
  })
  .meta({ id: "Profile" });

export const timelineSchema = z
  .object({
    period: z.enum(TIMELINE_PERIODS as [TimelinePeriod, ...TimelinePeriod[]]),
    /** days + 1 points, oldest first, one per UTC day, today included. */
    data: z.array(
      z.object({
        date: z.string().meta({ example: "2026-11-20" }),
        claims: z.number().int(),
        evidence: z.number().int(),
        votes: z.number().int(),
        comments: z.number().int(),
      }),
    ),
  })
  .meta({ id: "Timeline" });

/** Every reason a reputation change is recorded with: the database's ReputationReason (tests/unit/reputation-reasons.test.ts). */
export const REPUTATION_REASONS = [
  "evidence_upvoted",
  "evidence_downvoted",
  "evidence_vote_removed",
  "vote_aligned",
  "vote_opposed",
  // A check's bonds (docs/features/checks.md): staked on a proposal or a dispute, returned with the reward, won.
  "outcome_bond_staked",
  "outcome_bond_returned",
  "outcome_bond_won",
] as const;

export const reputationJourneySchema = z
  .object({
    current_score: z.number(),
    /** The most recent events, oldest first. */
    history: z.array(
      z.object({
        date: isoDate,
        /** The reputation after this event. */
        reputation_score: z.number(),
        delta: z.number(),
        reason: z.enum(REPUTATION_REASONS),
      }),
    ),
  })
  .meta({ id: "ReputationJourney" });

export type Profile = z.infer<typeof profileSchema>;
export type Timeline = z.infer<typeof timelineSchema>;
export type ReputationJourney = z.infer<typeof reputationJourneySchema>;
export type ExpertiseAreaOut = z.infer<typeof expertiseAreaSchema>;
