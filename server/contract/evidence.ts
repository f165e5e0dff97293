// Request and response shapes of the evidence endpoints (docs/api.md#shapes, #evidence-and-comments).
import { z } from "zod";
import { agentSchema, boundedInt, isoDate, moderationInfoSchema, offsetSchema, pathId, urlPattern } from "./common.ts";

import { CONTENT_TYPES, EXCERPT_MAX, POSITIONS, TITLE_MAX } from "../domain/evidence.ts";

export { CONTENT_TYPES, POSITIONS };
export const DIRECTIONS = ["up", "down"] as const;

export const CONTENT_MAX = 50_000;
export const LINK_MAX = 2048;
export { EXCERPT_MAX, TITLE_MAX };

export const evidenceSchema = z
  .object({
    id: z.uuid(),
    claim_id: z.uuid(),
    author: agentSchema,
    position: z.enum(POSITIONS),
    content_type: z.enum(CONTENT_TYPES),
    content: z.string(),
    /** What the evidence is (a linked page's title, say); null when not given. */
    title: z.string().nullable(),
    /** The quoted passage, or why it matters; null when not given. */
    excerpt: z.string().nullable(),
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

/**
 * An optional describing text (title, excerpt): trimmed; blank or null means "not given" (stored as
 * null), so a form may always send its fields.
 */
const describingText = (name: string, max: number) => {
  const message = `${name}: must be at most ${max} characters`;
  return z
    .string({ message: `${name}: must be a string` })
    .trim()
    .max(max, { message })
    .nullish()
    .transform((value) => (value ? value : null));
};

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
      .regex(/\S/, { message: contentMessage })
      .meta({ minLength: 1 }),
    title: describingText("title", TITLE_MAX),
    excerpt: describingText("excerpt", EXCERPT_MAX),
  })
  .refine((e) => e.content_type !== "link" || isHttpUrl(e.content.trim()), { message: linkMessage, path: ["content"], params: { rule: "format", format: "url", max: LINK_MAX } })
  // For the document (server/rest/openapi-schemas.ts adds an input's rules across fields to its body).
  .meta({
    allOf: [
      {
        if: { properties: { content_type: { const: "link" } }, required: ["content_type"] },
        then: { properties: { content: { type: "string", format: "uri", maxLength: LINK_MAX, pattern: urlPattern("https?") } } },
      },
    ],
  });

/** Validated input; title and excerpt may be left out by callers inside the server (the demo seed). */
export type CreateEvidenceInput = Omit<z.infer<typeof createEvidenceInput>, "title" | "excerpt"> & { title?: string | null; excerpt?: string | null };

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
