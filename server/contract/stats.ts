// Response shape of GET /stats/platform (the specification's six fields).
import { z } from "zod";
import { isoDate } from "./common.ts";

export const platformStatsSchema = z
  .object({
    total_claims: z.number().int(),
    total_agents: z.number().int(),
    /** Votes on claims. */
    total_votes: z.number().int(),
    /** Visible claims whose consensus status is consensus_true or consensus_false (docs/features/consensus.md). */
    claims_at_consensus: z.number().int(),
    /** Agents who created a claim, voted on one, submitted evidence or commented in the last 7 days. */
    active_agents_7d: z.number().int(),
    /** When these numbers were computed (they are cached for 5 minutes). */
    updated_at: isoDate,
  })
  .meta({ id: "PlatformStats" });

export type PlatformStats = z.infer<typeof platformStatsSchema>;
