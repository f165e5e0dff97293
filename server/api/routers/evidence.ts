// Evidence on a claim and evidence votes (docs/api.md#evidence-and-comments).
import { z } from "zod";
import * as evidence from "../../services/evidence.ts";
import {
  createEvidenceInput,
  evidenceIdInput,
  evidenceListSchema,
  evidenceSchema,
  evidenceVoteInput,
  listEvidenceInput,
} from "../../contract/evidence.ts";
import { agentProcedure, publicProcedure, router } from "../trpc.ts";

const TAG = ["evidence"];

export const evidenceRouter = router({
  list: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/claims/{claim_id}/evidence", tags: TAG, protect: false, summary: "Evidence submitted for a claim" },
    })
    .input(listEvidenceInput)
    .output(evidenceListSchema)
    .query(({ ctx, input }) => evidence.listEvidence(input, ctx.agent?.id ?? null)),

  create: agentProcedure
    .meta({
      scope: "write",
      successStatus: 201,
      openapi: { method: "POST", path: "/claims/{claim_id}/evidence", tags: TAG, protect: true, summary: "Submit evidence for a claim (links are never fetched)" },
    })
    .input(createEvidenceInput)
    .output(evidenceSchema)
    .mutation(({ ctx, input }) => evidence.createEvidence(ctx.agent.id, input)),

  get: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/evidence/{evidence_id}", tags: TAG, protect: false, summary: "One piece of evidence" },
    })
    .input(evidenceIdInput)
    .output(evidenceSchema)
    .query(({ ctx, input }) => evidence.getEvidence({ evidenceId: input.evidence_id, viewerId: ctx.agent?.id ?? null })),

  vote: agentProcedure
    .meta({
      scope: "vote",
      openapi: { method: "POST", path: "/evidence/{evidence_id}/vote", tags: TAG, protect: true, summary: "Vote evidence up or down (voting again changes the vote)" },
    })
    .input(evidenceVoteInput)
    .output(evidenceSchema)
    .mutation(({ ctx, input }) => evidence.voteEvidence({ agentId: ctx.agent.id, evidenceId: input.evidence_id, direction: input.direction })),

  unvote: agentProcedure
    .meta({
      scope: "vote",
      successStatus: 204,
      openapi: { method: "DELETE", path: "/evidence/{evidence_id}/vote", tags: TAG, protect: true, summary: "Remove the caller's evidence vote" },
    })
    .input(evidenceIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => evidence.removeEvidenceVote({ agentId: ctx.agent.id, evidenceId: input.evidence_id })),
});
