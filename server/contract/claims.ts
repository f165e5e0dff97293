// Request and response shapes of the claim endpoints (docs/api.md#shapes, #claims).
import { z } from "zod";
import { agentSchema, boundedInt, canonicalId, COMMA_SEPARATED, isoDate, moderationInfoSchema, offsetSchema, pathId, trimmedText } from "./common.ts";
import { MAX_TAGS, normalizeTags, TAG_PATTERN } from "../domain/tags.ts";
import { CONSENSUS_STATUSES, DECIDED_BY, HISTOGRAM_BINS, type ConsensusStatus } from "../domain/consensus.ts";
import { CHECK_STATES, checkSchema, checkTermsInput } from "./checks.ts";

export const COMPLEXITY_TIERS = ["simple", "moderate", "complex", "contested"] as const;
export const complexityTierSchema = z.enum(COMPLEXITY_TIERS, {
  message: `complexity_tier: must be one of ${COMPLEXITY_TIERS.join(", ")}`,
});

export const STATEMENT_MIN = 10;
export const STATEMENT_MAX = 5000;
export const MAX_PARENTS = 5;
/** Raw entries accepted before normalisation: duplicates may collapse, but a 60k-entry array is abuse. */
const MAX_RAW_TAGS = 100;
export const Q_MIN = 2;
export const Q_MAX = 200;
/** Words in `q` (operators such as `or` and `-` aside): each OR term widens the set that is ranked. */
export const MAX_SEARCH_TERMS = 10;
/** Tags one `tags` filter may name, once split at commas (GET /claims). */
export const MAX_QUERY_TAGS = 50;

/**
 * At most MAX_SEARCH_TERMS words, as a pattern the document can state: a word is a run of letters,
 * digits and `_`; the word `or` (any case) is an operator and does not count. Each word is followed by
 * a separator or the end, and a counted word is never `or`, so the string is read one way only (no
 * backtracking over the ways to read it).
 */
const SEARCH_TERMS_PATTERN = (() => {
  const word = "[\\p{L}\\p{N}_]";
  const gap = "[^\\p{L}\\p{N}_]";
  const or = `[oO][rR](?:${gap}+|$)`;
  const term = `(?![oO][rR](?:${gap}|$))${word}+(?:${gap}+|$)`;
  return new RegExp(`^${gap}*(?:${or})*(?:${term}(?:${or})*){0,${MAX_SEARCH_TERMS}}$`, "u");
})();

// ---- responses ----

export const BRIDGING_STATUS_VALUES = ["insufficient_data", "bridged_true", "bridged_false", "divided", "undecided"] as const;

/** Bridged consensus (docs/features/bridging.md). */
export const bridgingSchema = z
  .object({
    /** μ + i_claim clamped to [0, 1]: the agreement no viewpoint explains; null until scored. */
    score: z.number().min(0).max(1).nullable(),
    /** f_claim: how far the claim splits voters along the viewpoint factor; null until scored. */
    polarity: z.number().nullable(),
    status: z.enum(BRIDGING_STATUS_VALUES),
    /** When these values last changed (a fit or re-score that agrees leaves them alone); null until scored. */
    computed_at: isoDate.nullable(),
  })
  .meta({ id: "Bridging" });

export { CONSENSUS_STATUSES } from "../domain/consensus.ts";

const histogramSchema = z.array(z.number().int().min(0)).length(HISTOGRAM_BINS);

/** Where consensus stands (docs/features/consensus.md). */
export const consensusSchema = z
  .object({
    /**
     * no_votes; too_few_votes (1–4 voters); then the bridging model's verdict when it has enough data
     * (bridged_true/bridged_false → consensus_true/consensus_false, divided, undecided → open); else the
     * gradient of the counted votes alone (> 0.8 consensus_true, < 0.2 consensus_false, otherwise open).
     * Only votes of accounts with standing count (docs/features/consensus.md#standing).
     */
    status: z.enum(CONSENSUS_STATUSES),
    /** Distinct agents with a current vote that counts: their accounts have standing. */
    voters: z.number().int().min(0),
    /** Which rule decided a consensus: "viewpoints" (bridging) or "votes" (the gradient alone); null otherwise. */
    decided_by: z.enum(DECIDED_BY).nullable(),
    /** The counted votes per value bin [0,0.1), [0.1,0.2), …, [0.9,1.0]; sums to voters. */
    histogram: histogramSchema,
    /** The counted votes' reputation-weighted mean, the one the rule reads; null without counted votes. */
    gradient: z.number().min(0).max(1).nullable(),
    /** Current votes that do not count: people's accounts without standing (yet), and automated accounts'. */
    not_counted: z.object({ people: z.number().int().min(0), automated: z.number().int().min(0) }),
    /** When the current status began; null for no_votes. */
    since: isoDate.nullable(),
  })
  .meta({ id: "Consensus" });

/** The automated accounts' votes, shown beside the status (they never decide it). */
export const agentsViewSchema = z
  .object({
    /** Automated accounts with a current vote. */
    voters: z.number().int().min(0),
    /** Their votes' reputation-weighted mean; null without any. */
    gradient: z.number().min(0).max(1).nullable(),
    /** Their votes per value bin, as consensus.histogram; sums to voters. */
    histogram: histogramSchema,
  })
  .meta({ id: "AgentsView" });

export type Consensus = z.infer<typeof consensusSchema>;

export const claimSchema = z
  .object({
    id: z.uuid(),
    statement: z.string(),
    complexity_tier: z.enum(COMPLEXITY_TIERS),
    tags: z.array(z.string()),
    parent_ids: z.array(z.uuid()),
    gradient: z.number().min(0).max(1),
    /** The same weighted mean over the votes of accounts that are not automated; null when there are none. */
    gradient_people: z.number().min(0).max(1).nullable(),
    vote_count: z.number().int(),
    evidence_count: z.number().int(),
    author: agentSchema,
    created_at: isoDate,
    updated_at: isoDate,
    /** The caller's vote value; null without a token or without a vote. */
    user_vote: z.number().nullable(),
    /** null without a token. */
    is_bookmarked: z.boolean().nullable(),
    /** null without a token. */
    is_following: z.boolean().nullable(),
    bridging: bridgingSchema,
    consensus: consensusSchema,
    agents: agentsViewSchema,
    /** How and when the claim is checked against the world, and its outcome (docs/features/checks.md); null without a check. */
    check: checkSchema.nullable(),
    /** Only on hidden content, shown to its author and moderators (docs/features/moderation.md). */
    moderation: moderationInfoSchema.optional(),
  })
  .meta({ id: "Claim" });

export type Claim = z.infer<typeof claimSchema>;

export const gradientPointSchema = z
  .object({ gradient: z.number(), vote_count: z.number().int(), recorded_at: isoDate })
  .meta({ id: "GradientPoint" });

export const claimDetailSchema = claimSchema
  .extend({
    /** Oldest first. */
    gradient_history: z.array(gradientPointSchema),
    parent_claims: z.array(claimSchema),
    /**
     * Why the people's votes in consensus.not_counted.people do not count yet, by the first thing
     * their accounts lack (at most 1,000 of them looked at); `restating`: accounts that have standing
     * now, whose votes are about to count.
     */
    not_counted_reasons: z
      .object({
        suspended: z.number().int().min(0),
        unverified: z.number().int().min(0),
        too_new: z.number().int().min(0),
        too_few_votes: z.number().int().min(0),
        restating: z.number().int().min(0),
      })
      .meta({ id: "NotCountedReasons" }),
  })
  .meta({ id: "ClaimDetail" });

export type ClaimDetail = z.infer<typeof claimDetailSchema>;

export const claimListSchema = z
  .object({
    claims: z.array(claimSchema),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: "ClaimList" });

export type ClaimList = z.infer<typeof claimListSchema>;

export const bookmarkSchema = z
  .object({ claim_id: z.uuid(), is_bookmarked: z.literal(true), created_at: isoDate })
  .meta({ id: "Bookmark" });

export const followSchema = z
  .object({
    claim_id: z.uuid(),
    is_following: z.literal(true),
    notify_on_vote: z.boolean(),
    notify_on_evidence: z.boolean(),
    notify_on_comment: z.boolean(),
    created_at: isoDate,
  })
  .meta({ id: "Follow" });

export type FollowOut = z.infer<typeof followSchema>;
export type BookmarkOut = z.infer<typeof bookmarkSchema>;

// ---- requests ----

/**
 * A number or boolean read from a JSON body, kept strict: trpc-to-openapi switches on zod coercion
 * for every top-level number/boolean field of an input, bodies included, so "0.5" would pass as 0.5,
 * null as 0 and "false" as true. It does not look inside a pipe, and this wrapper is one.
 */
export const strictBodyField = <T extends z.ZodType>(schema: T) => schema.transform((value) => value);

const statementMessage = `statement: must be ${STATEMENT_MIN}-${STATEMENT_MAX} characters`;
// The document states the tags the server keeps: at most MAX_TAGS, each in its final form (the server
// trims and lower-cases each one and drops repeats first, so more entries may reduce to them).
const tagsSchema = z
  .array(z.string({ message: "must be a string" }).meta({ pattern: TAG_PATTERN.source }), { message: "tags: must be an array of strings" })
  .max(MAX_RAW_TAGS, { message: `tags: at most ${MAX_RAW_TAGS} entries are accepted` })
  .meta({ maxItems: MAX_TAGS, description: `At most ${MAX_TAGS} tags of a-z, 0-9, _ and - (1-50 characters), trimmed and lower-cased by the server; repeats count once` })
  .transform((raw, ctx) => {
    const result = normalizeTags(raw);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", message: result.message, params: { rule: result.rule, max: result.max, ...(result.rule === "format" && { format: "pattern" }) } });
      return z.NEVER;
    }
    return result.tags;
  });

export const createClaimInput = z.object({
  statement: trimmedText("statement: is required", {
    min: STATEMENT_MIN,
    max: STATEMENT_MAX,
    minMessage: statementMessage,
    maxMessage: statementMessage,
  }),
  complexity_tier: complexityTierSchema.default("simple"),
  tags: tagsSchema.default([]),
  // Ids of visible claims; one that is not (malformed or unknown) is a 400 naming it.
  parent_ids: z
    .array(z.string({ message: "must be a string" }).transform(canonicalId).meta({ format: "uuid" }), { message: "parent_ids: must be an array of claim ids" })
    .max(MAX_PARENTS, { message: `parent_ids: at most ${MAX_PARENTS} parent claims are allowed` })
    .default([]),
  /** How and when the claim will be checked against the world (docs/features/checks.md); optional. */
  check: checkTermsInput.optional(),
});

export type CreateClaimInput = z.infer<typeof createClaimInput>;

const qMessage = `q: must be ${Q_MIN}-${Q_MAX} characters`;
const gradientBound = (name: string) => {
  const message = `${name}: must be a number between 0 and 1`;
  return z.number({ message }).min(0, { message }).max(1, { message }).optional();
};

const consensusFilterMessage = `consensus: each must be one of ${CONSENSUS_STATUSES.join(", ")}`;
/** Values of a parameter given comma-separated, repeated, or both; empty entries dropped. */
const splitList = (raw: readonly string[]) => raw.flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");

/** The `consensus` filter's statuses (validated by listClaimsInput), without duplicates. */
export function consensusFilter(raw: readonly string[] | undefined): ConsensusStatus[] {
  return [...new Set(splitList(raw ?? []))] as ConsensusStatus[];
}

export const SORT_FIELDS = ["created_at", "gradient", "vote_count", "bridging_score"] as const;

export const listClaimsInput = z
  .object({
    q: trimmedText(qMessage, { min: Q_MIN, max: Q_MAX, minMessage: qMessage, maxMessage: qMessage })
      .regex(SEARCH_TERMS_PATTERN, { message: `q: at most ${MAX_SEARCH_TERMS} search terms` })
      .optional(),
    /** Comma-separated, or the parameter repeated; a claim matches when it has any of them. */
    tags: z
      .array(z.string({ message: "tags: must be a string" }))
      // Counted as sent, every comma-separated part (as the document's maxItems counts them).
      .superRefine((raw, ctx) => {
        if (raw.flatMap((v) => v.split(",")).length > MAX_QUERY_TAGS) {
          ctx.addIssue({ code: "too_big", origin: "array", maximum: MAX_QUERY_TAGS, inclusive: true, message: `tags: at most ${MAX_QUERY_TAGS} tags can be given` });
        }
      })
      .meta({ maxItems: MAX_QUERY_TAGS, description: `A claim with any of these tags (at most ${MAX_QUERY_TAGS}); repeating the parameter works too`, [COMMA_SEPARATED]: true })
      .optional(),
    complexity: z
      .enum(COMPLEXITY_TIERS, { message: `complexity: must be one of ${COMPLEXITY_TIERS.join(", ")}` })
      .optional(),
    min_gradient: gradientBound("min_gradient").meta({ description: "At most max_gradient when both are given" }),
    max_gradient: gradientBound("max_gradient"),
    bridging_status: z
      .enum(BRIDGING_STATUS_VALUES, { message: `bridging_status: must be one of ${BRIDGING_STATUS_VALUES.join(", ")}` })
      .optional(),
    /** Comma-separated, or the parameter repeated; a claim matches when its status is any of them. */
    consensus: z
      .array(z.string({ message: consensusFilterMessage }).meta({ enum: [...CONSENSUS_STATUSES] }))
      .meta({ description: "A claim whose status is any of these; repeating the parameter works too", [COMMA_SEPARATED]: true })
      .superRefine((raw, ctx) => {
        const bad = splitList(raw).find((s) => !(CONSENSUS_STATUSES as readonly string[]).includes(s));
        if (bad !== undefined) ctx.addIssue({ code: "custom", message: `${consensusFilterMessage} (got "${bad.slice(0, 40)}")` });
      })
      .optional(),
    /** Claims whose check is in this state (docs/features/checks.md); claims without a check never match. */
    check: z.enum(CHECK_STATES, { message: `check: must be one of ${CHECK_STATES.join(", ")}` }).optional(),
    /** created_at by default; relevance when q is given and sort_by is not. */
    sort_by: z.enum(SORT_FIELDS, { message: `sort_by: must be one of ${SORT_FIELDS.join(", ")}` }).optional(),
    sort_order: z.enum(["asc", "desc"], { message: "sort_order: must be asc or desc" }).default("desc"),
    limit: boundedInt("limit", 1, 100, 20),
    offset: offsetSchema,
  })
  .refine((i) => i.min_gradient === undefined || i.max_gradient === undefined || i.min_gradient <= i.max_gradient, {
    message: "min_gradient: must not be greater than max_gradient",
    path: ["min_gradient"],
    params: { rule: "not_above", other: "max_gradient" },
  });

export type ListClaimsInput = z.infer<typeof listClaimsInput>;

export const pageInput = z.object({
  limit: boundedInt("limit", 1, 100, 20),
  offset: offsetSchema,
});

export const claimIdInput = z.object({ claim_id: pathId });

const voteValueMessage = "value: must be between 0 and 1";
export const claimVoteInput = z.object({
  claim_id: pathId,
  value: strictBodyField(
    z.number({ message: voteValueMessage }).min(0, { message: voteValueMessage }).max(1, { message: voteValueMessage }),
  ),
});

const flag = (name: string) => strictBodyField(z.boolean({ message: `${name}: must be true or false` })).optional();
export const followInput = z.object({
  claim_id: pathId,
  notify_on_vote: flag("notify_on_vote"),
  notify_on_evidence: flag("notify_on_evidence"),
  notify_on_comment: flag("notify_on_comment"),
});

export type FollowFlags = Partial<Record<"notify_on_vote" | "notify_on_evidence" | "notify_on_comment", boolean>>;

// ---- similar claims (docs/features/arguments.md#similar-claims) ----

const similarQMessage = `q: must be ${STATEMENT_MIN}-${STATEMENT_MAX} characters`;
export const similarClaimsInput = z.object({
  q: trimmedText(similarQMessage, { min: STATEMENT_MIN, max: STATEMENT_MAX, minMessage: similarQMessage, maxMessage: similarQMessage }),
  limit: boundedInt("limit", 1, 20, 5),
});

export type SimilarClaimsInput = z.infer<typeof similarClaimsInput>;

export const similarClaimSchema = claimSchema
  .extend({
    /** 0–1: trigram similarity of the statements, raised by the full-text rank of the words they share. */
    similarity: z.number().min(0).max(1),
    /** The same statement once folded (case, spaces and punctuation aside): a new claim with the text would be refused as a duplicate. */
    exact: z.boolean(),
  })
  .meta({ id: "SimilarClaim" });

export const similarClaimsSchema = z.object({ claims: z.array(similarClaimSchema) }).meta({ id: "SimilarClaims" });

export type SimilarClaims = z.infer<typeof similarClaimsSchema>;

/** The 409 of a claim whose folded statement another claim already has. */
export const DUPLICATE_STATEMENT = "A claim with this statement already exists";
