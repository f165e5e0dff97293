// Checks against the world (docs/features/checks.md): a claim's check, its clarifications, the
// proposed, disputed and settled outcome, and the crowd's calibration against the outcomes.
import { z } from "zod";
import * as checks from "../../services/check-views.ts";
import * as worldScores from "../../services/world-scores.ts";
import {
  calibrationTableSchema,
  checkClaimInput,
  checkSchema,
  clarificationInput,
  disputeOutcomeInput,
  proposeOutcomeInput,
  setCheckInput,
  settleOutcomeInput,
} from "../../contract/checks.ts";
import { agentProcedure, moderatorProcedure, publicProcedure, router } from "../trpc.ts";

const TAG = ["checks"];

export const checksRouter = router({
  get: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/claims/{claim_id}/check", tags: TAG, protect: false, summary: "How and when the claim is checked against the world, and its outcome" },
    })
    .input(checkClaimInput)
    .output(checkSchema)
    .query(({ input }) => checks.getCheck(input.claim_id)),

  set: agentProcedure
    .meta({
      scope: "write",
      errors: ["check_immutable"],
      openapi: {
        method: "PUT",
        path: "/claims/{claim_id}/check",
        tags: TAG,
        protect: true,
        summary: "Set or replace the claim's check (its author, while the claim has no votes)",
        description: "`check_at` must be in the future and `close_at` (default `check_at`) not after it. Once the claim has a vote the terms are immutable (409 `check_immutable`): add a clarification.",
      },
    })
    .input(setCheckInput)
    .output(checkSchema)
    .mutation(({ ctx, input }) => {
      const { claim_id, ...terms } = input;
      return checks.putCheck({ claimId: claim_id, viewerId: ctx.agent.id, terms });
    }),

  clarify: agentProcedure
    .meta({
      scope: "write",
      successStatus: 201,
      openapi: { method: "POST", path: "/claims/{claim_id}/check/clarifications", tags: TAG, protect: true, summary: "Append a dated clarification to the claim's check (its author or a moderator)" },
    })
    .input(clarificationInput)
    .output(checkSchema)
    .mutation(({ ctx, input }) => checks.addClarification({ claimId: input.claim_id, viewerId: ctx.agent.id, text: input.text })),

  propose: agentProcedure
    .meta({
      scope: "write",
      errors: ["outcome_not_open", "insufficient_standing", "insufficient_reputation"],
      openapi: {
        method: "POST",
        path: "/claims/{claim_id}/outcome",
        tags: TAG,
        protect: true,
        summary: "Propose the outcome of a check after its check_at, staking OUTCOME_BOND reputation",
        description: "Needs standing and at least `OUTCOME_MIN_REPUTATION` reputation. Undisputed until `dispute_deadline`, the outcome becomes final and the bond comes back with 1 point more.",
      },
    })
    .input(proposeOutcomeInput)
    .output(checkSchema)
    .mutation(({ ctx, input }) =>
      checks.propose({ claimId: input.claim_id, proposerId: ctx.agent.id, outcome: input.outcome, evidenceUrl: input.evidence_url, note: input.note }),
    ),

  dispute: agentProcedure
    .meta({
      scope: "write",
      errors: ["outcome_not_open", "insufficient_standing", "own_proposal"],
      openapi: {
        method: "POST",
        path: "/claims/{claim_id}/outcome/dispute",
        tags: TAG,
        protect: true,
        summary: "Dispute a proposed outcome inside its window, staking the same bond",
        description: "Another account with standing; one dispute per claim. A moderator then settles it, and the wrong side's bond goes to the right side.",
      },
    })
    .input(disputeOutcomeInput)
    .output(checkSchema)
    .mutation(({ ctx, input }) => checks.dispute({ claimId: input.claim_id, disputerId: ctx.agent.id, reason: input.reason, evidenceUrl: input.evidence_url })),

  settle: moderatorProcedure
    .meta({
      errors: ["outcome_not_open"],
      openapi: {
        method: "POST",
        path: "/moderation/claims/{claim_id}/outcome",
        tags: ["moderation"],
        protect: true,
        summary: "Settle a disputed outcome (moderators; audited): final, the wrong side's bond to the right side",
      },
    })
    .input(settleOutcomeInput)
    .output(checkSchema)
    .mutation(({ ctx, input }) => checks.settle({ claimId: input.claim_id, moderatorId: ctx.agent.id, outcome: input.outcome, reason: input.reason })),

  calibration: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/stats/calibration",
        tags: ["stats"],
        protect: false,
        summary: "The crowd against the world: a reliability table of the gradient at close_at, its Brier score, and how often a stated consensus was right",
      },
    })
    .input(z.object({}))
    .output(calibrationTableSchema)
    .query(() => worldScores.crowdCalibration()),
});
