// Edits with history (docs/features/edits.md): PATCH /claims/{claim_id} before the first vote, and
// every version of the statement.
import { claimSchema } from "../../contract/claims.ts";
import { claimHistorySchema, editClaimInput, editEvidenceInput, evidenceHistorySchema } from "../../contract/edits.ts";
import { evidenceIdInput, evidenceSchema } from "../../contract/evidence.ts";
import { claimIdInput } from "../../contract/claims.ts";
import * as edits from "../../services/edits.ts";
import { agentProcedure, publicProcedure, router } from "../trpc.ts";

const TAG = ["claims"];

export const editsRouter = router({
  claim: agentProcedure
    .meta({
      errors: ["duplicate_claim", "edit_locked"],
      scope: "write",
      openapi: {
        method: "PATCH",
        path: "/claims/{claim_id}",
        tags: TAG,
        protect: true,
        summary: "Edit a claim's statement (its author, before the first vote)",
        description:
          "Every version is kept (`GET /claims/{claim_id}/history`). Once the claim has had a vote its statement no longer changes: 409 `edit_locked`. 403 for anyone but its author; 409 `duplicate_claim` when another claim has the new statement.",
      },
    })
    .input(editClaimInput)
    .output(claimSchema)
    .mutation(({ ctx, input }) => edits.editClaim(ctx.agent.id, input)),

  claimHistory: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/claims/{claim_id}/history", tags: TAG, protect: false, summary: "Every version of the claim's statement, oldest first" },
    })
    .input(claimIdInput)
    .output(claimHistorySchema)
    .query(({ ctx, input }) => edits.claimHistory(input.claim_id, ctx.agent?.id ?? null)),

  evidence: agentProcedure
    .meta({
      errors: ["edit_locked"],
      scope: "write",
      openapi: {
        method: "PATCH",
        path: "/evidence/{evidence_id}",
        tags: ["evidence"],
        protect: true,
        summary: "Edit a piece of evidence's title and excerpt (its author, before its first vote)",
        description:
          "The source (`content`) stays. Every version is kept (`GET /evidence/{evidence_id}/history`). Once anyone has voted on it: 409 `edit_locked`. 403 for anyone but its author.",
      },
    })
    .input(editEvidenceInput)
    .output(evidenceSchema)
    .mutation(({ ctx, input }) => edits.editEvidence(ctx.agent.id, input)),

  evidenceHistory: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/evidence/{evidence_id}/history", tags: ["evidence"], protect: false, summary: "Every version of a piece of evidence, oldest first" },
    })
    .input(evidenceIdInput)
    .output(evidenceHistorySchema)
    .query(({ ctx, input }) => edits.evidenceHistory(input.evidence_id, ctx.agent?.id ?? null)),
});
