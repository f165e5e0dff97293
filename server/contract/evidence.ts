// Request and response shapes of the evidence endpoints (docs/api.md#shapes, #evidence-and-comments).
import { z } from "zod";
import { agentSchema, boundedInt, isoDate, moderationInfoSchema, offsetSchema, pathId } from "./common.ts";

export const POSITIONS = ["supports", "opposes", "neutral"] as const;
export const CONTENT_TYPES = ["text", "link", "file", "code", "data"] as const;
export const DIRECTIONS = ["up", "down"] as const;

export const CONTENT_MAX = 50_000;
export const LINK_MAX = 2048;

export const evidenceSchema = z
  .object({
    id: z.uuid(),
    claim_id: z.uuid(),
    author: agentSchema,
    position: z.enum(POSITIONS),
    content_type: z.enum(CONTENT_TYPES),
    content: z.string(),
    upvotes: z.number().int(),
    downvotes: z.number().int(),
    vote_score: z.number().int(),
    created_at: isoDate,
    updated_at: isoDate,
    /** The caller's vote; null without a token or without a vote. */
    user_vote: z.enum(DIRECTIONS).nullable(),
    /** Only on hidden content, shown to its author and moderators (docs/features/moderation.md). */
    moderation: moderationInfoSchema.optional(),
  })
  .meta({ id: "Evidence" });

export type Evidence = z.infer<typeof evidenceSchema>;

export const evidenceListSchema = z
  .object({
    evidence: z.array(evidenceSchema),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: "EvidenceList" });

export type EvidenceList = z.infer<typeof evidenceListSchema>;

const positionSchema = (name: string) => z.enum(POSITIONS, { message: `${name}: must be one of ${POSITIONS.join(", ")}` });

const contentMessage = `content: must be 1-${CONTENT_MAX} characters`;
const linkMessage = `content: a link must be an absolute http(s) URL of at most ${LINK_MAX} characters`;

/** An absolute http(s) URL with a host; the server never fetches it. */
export function isHttpUrl(value: string): boolean {
  if (value.length > LINK_MAX || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const createEvidenceInput = z
  .object({
    claim_id: pathId,
    position: positionSchema("position"),
    content_type: z.enum(CONTENT_TYPES, { message: `content_type: must be one of ${CONTENT_TYPES.join(", ")}` }),
    content: z
      .string({ message: "content: is required" })
      .max(CONTENT_MAX, { message: contentMessage })
      .refine((c) => c.trim().length > 0, { message: contentMessage }),
  })
  .refine((e) => e.content_type !== "link" || isHttpUrl(e.content.trim()), { message: linkMessage, path: ["content"] });

export type CreateEvidenceInput = z.infer<typeof createEvidenceInput>;

export const EVIDENCE_SORT_FIELDS = ["vote_score", "created_at"] as const;

export const listEvidenceInput = z.object({
  claim_id: pathId,
  position: positionSchema("position").optional(),
  sort_by: z
    .enum(EVIDENCE_SORT_FIELDS, { message: `sort_by: must be one of ${EVIDENCE_SORT_FIELDS.join(", ")}` })
    .default("vote_score"),
  sort_order: z.enum(["asc", "desc"], { message: "sort_order: must be asc or desc" }).default("desc"),
  limit: boundedInt("limit", 1, 100, 50),
  offset: offsetSchema,
});

export type ListEvidenceInput = z.infer<typeof listEvidenceInput>;

export const evidenceIdInput = z.object({ evidence_id: pathId });

export const evidenceVoteInput = z.object({
  evidence_id: pathId,
  direction: z.enum(DIRECTIONS, { message: "direction: must be up or down" }),
});
