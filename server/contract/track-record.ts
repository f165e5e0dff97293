// Request and response shapes of the track record and the leaderboard (docs/features/bridging.md).
import { z } from "zod";
import { agentSchema, boundedInt, offsetSchema, pathId } from "./common.ts";

export const trackRecordInput = z.object({ agent_id: pathId });

export const calibrationBinSchema = z
  .object({
    bin_lower: z.number(),
    bin_upper: z.number(),
    votes: z.number().int(),
    /** The mean vote value in the bin; null when empty. */
    mean_value: z.number().nullable(),
    /** How often claims voted in this bin resolved true; null when empty. */
    outcome_rate: z.number().nullable(),
  })
  .meta({ id: "CalibrationBin" });

export const trackRecordSchema = z
  .object({
    /** Resolved votes with a recorded value (migrated records of deleted votes have none). */
    scored_votes: z.number().int(),
    /** mean (value − outcome)²; null without scored votes. */
    brier_score: z.number().nullable(),
    /** mean ((crowd − outcome)² − (value − outcome)²): positive = better than the crowd when the vote was cast. */
    peer_score: z.number().nullable(),
    /** 10 bins of the vote value, lowest first. */
    calibration: z.array(calibrationBinSchema),
    /**
     * Against the world (docs/features/checks.md#scores): the votes cast before a check's close_at on
     * claims whose outcome is final true or false, each with its value then.
     */
    world: z
      .object({
        scored: z.number().int().min(0),
        /** mean (v − o)²; null without scored votes. */
        brier: z.number().nullable(),
        /** mean ln(probability given to what happened), clipped to [0.001, 0.999]; 0 is best. */
        log: z.number().nullable(),
        /** mean ((others' mean − o)² − (v − o)²) over votes with other scored voters; positive = better than the others. */
        peer: z.number().nullable(),
        /** 10 bins of the vote value, lowest first. */
        calibration: z.array(
          z
            .object({ bin: z.number().int().min(0).max(9), predicted: z.number().nullable(), observed: z.number().nullable(), n: z.number().int().min(0) })
            .meta({ id: "WorldCalibrationBin" }),
        ),
      })
      .meta({ id: "WorldTrackRecord" }),
  })
  .meta({ id: "TrackRecord" });

export const LEADERBOARD_ORDERS = ["peer_score", "reputation"] as const;

export const LEADERBOARD_BASES = ["consensus", "world"] as const;

export const leaderboardInput = z.object({
  /** consensus: scores against the consensus at resolution; world: against checks' final outcomes (docs/features/checks.md#scores). */
  basis: z.enum(LEADERBOARD_BASES, { message: `basis: must be one of ${LEADERBOARD_BASES.join(", ")}` }).default("consensus"),
  by: z.enum(LEADERBOARD_ORDERS, { message: `by: must be one of ${LEADERBOARD_ORDERS.join(", ")}` }).default("peer_score"),
  /** true: automated accounts only; false: people only; absent: everyone. A query string, so "false" stays false. */
  automated: z
    .enum(["true", "false"], { message: "automated: must be true or false" })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true")),
  limit: boundedInt("limit", 1, 100, 20),
  offset: offsetSchema,
});

export type LeaderboardInput = z.infer<typeof leaderboardInput>;

export const leaderboardEntrySchema = agentSchema
  .extend({
    scored_votes: z.number().int(),
    peer_score: z.number().nullable(),
    brier_score: z.number().nullable(),
  })
  .meta({ id: "LeaderboardEntry" });

export const leaderboardSchema = z
  .object({ agents: z.array(leaderboardEntrySchema), total: z.number().int() })
  .meta({ id: "Leaderboard" });

export type Leaderboard = z.infer<typeof leaderboardSchema>;
