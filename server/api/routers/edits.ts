// Edits with history (docs/features/edits.md): PATCH /claims/{claim_id} before the first vote, and
// every version of the statement.
import { claimSchema } from "../../contract/claims.ts";
import { claimHistorySchema, editClaimInput } from "../../contract/edits.ts";
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
});
