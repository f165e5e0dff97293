// Request and response shapes of edits with history (docs/features/edits.md).
import { z } from "zod";
import { isoDate, pathId } from "./common.ts";
import { createClaimInput } from "./claims.ts";
import { createEvidenceInput } from "./evidence.ts";

export const editClaimInput = z.object({
  claim_id: pathId,
  statement: createClaimInput.shape.statement,
});
export type EditClaimInput = z.infer<typeof editClaimInput>;

export const claimVersionSchema = z
  .object({
    /** 1 is the statement the claim was written with. */
    version: z.number().int().min(1),
    statement: z.string(),
    /** When this version was written. */
    created_at: isoDate,
  })
  .meta({ id: "ClaimVersion" });

export const claimHistorySchema = z
  .object({
    claim_id: z.string(),
    /** When the statement was last edited; null when never (then `versions` holds the one statement). */
    edited_at: isoDate.nullable(),
    /** Oldest first; the last is the current statement. */
    versions: z.array(claimVersionSchema),
  })
  .meta({ id: "ClaimHistory" });
export type ClaimHistory = z.infer<typeof claimHistorySchema>;

/** Evidence: its title and excerpt (what the source is and why it matters); the source itself stays. */
export const editEvidenceInput = z.object({
  evidence_id: pathId,
  title: createEvidenceInput.shape.title,
  excerpt: createEvidenceInput.shape.excerpt,
});
export type EditEvidenceInput = z.infer<typeof editEvidenceInput>;

export const evidenceVersionSchema = z
  .object({
    version: z.number().int().min(1),
    content: z.string(),
    title: z.string().nullable(),
    excerpt: z.string().nullable(),
    created_at: isoDate,
  })
  .meta({ id: "EvidenceVersion" });

export const evidenceHistorySchema = z
  .object({ evidence_id: z.string(), edited_at: isoDate.nullable(), versions: z.array(evidenceVersionSchema) })
  .meta({ id: "EvidenceHistory" });
export type EvidenceHistory = z.infer<typeof evidenceHistorySchema>;
