// Request and response shapes of arguments (docs/features/arguments.md).
import { z } from "zod";
import { agentSchema, boundedInt, isoDate, offsetSchema, pathId, REST_TEXT } from "./common.ts";
import { claimSchema, complexityTierSchema, createClaimInput, strictBodyField } from "./claims.ts";

export const STANCES = ["supports", "opposes"] as const;
export type Stance = (typeof STANCES)[number];
const stanceMessage = `stance: must be one of ${STANCES.join(", ")}`;

export const relevanceSchema = z
  .object({
    /** Mean of the relevance votes; null without any. */
    value: z.number().min(0).max(1).nullable(),
    votes: z.number().int().min(0),
  })
  .meta({ id: "Relevance" });

export const argumentSchema = z
  .object({
    id: z.uuid(),
    parent_claim_id: z.uuid(),
    stance: z.enum(STANCES),
    /** The child claim, with its own consensus. */
    claim: claimSchema,
    relevance: relevanceSchema,
    /** truth × relevance; truth is the child's bridged score when bridged_true/bridged_false, else its gradient. Null without relevance votes or child votes. */
    impact: z.number().min(0).max(1).nullable(),
    author: agentSchema,
    created_at: isoDate,
    /** The caller's relevance vote; null without a token or without a vote. */
    user_relevance: z.number().nullable(),
  })
  .meta({ id: "Argument" });

export type ArgumentOut = z.infer<typeof argumentSchema>;

export const addArgumentInput = z
  .object({
    claim_id: pathId,
    stance: z.enum(STANCES, { message: stanceMessage }),
    /** An existing claim to link as the argument (exactly one of this and `statement`); one that is not visible is a 400 naming it. */
    child_claim_id: z.string({ message: "child_claim_id: must be a claim id" }).meta({ format: "uuid" }).optional(),
    statement: createClaimInput.shape.statement.optional(),
    complexity_tier: complexityTierSchema.optional(),
    tags: createClaimInput.shape.tags.optional(),
  })
  // For the document (server/rest/openapi-schemas.ts adds an input's rules across fields to its body).
  .meta({ oneOf: [{ required: ["child_claim_id"] }, { required: ["statement"] }] });

/** Exactly one of child_claim_id and statement: checked by the service once the parent is known to exist (404 first). */
export const ONE_CHILD = "body: give exactly one of child_claim_id and statement";

export type AddArgumentInput = z.infer<typeof addArgumentInput>;

export const argumentIdInput = z.object({ argument_id: pathId });

const relevanceMessage = "value: must be between 0 and 1";
export const relevanceVoteInput = z.object({
  argument_id: pathId,
  value: strictBodyField(
    z.number({ message: relevanceMessage }).min(0, { message: relevanceMessage }).max(1, { message: relevanceMessage }),
  ),
});

export const ARGUMENT_SORTS = ["impact", "created_at"] as const;
export const listArgumentsInput = z.object({
  claim_id: pathId,
  stance: z.enum(STANCES, { message: stanceMessage }).optional(),
  sort_by: z.enum(ARGUMENT_SORTS, { message: `sort_by: must be one of ${ARGUMENT_SORTS.join(", ")}` }).default("impact"),
  limit: boundedInt("limit", 1, 100, 50),
  offset: offsetSchema,
});

export type ListArgumentsInput = z.infer<typeof listArgumentsInput>;

export const argumentListSchema = z
  .object({
    arguments: z.array(argumentSchema),
    total: z.number().int(),
    /** Σ impact of supports − Σ impact of opposes: shown, never fed into the parent's gradient. */
    balance: z.number(),
  })
  .meta({ id: "ArgumentList" });

export type ArgumentList = z.infer<typeof argumentListSchema>;

/** Where a claim stands as an argument: under which claims, for or against them. */
export const argumentUsesInput = z.object({
  claim_id: pathId,
  limit: boundedInt("limit", 1, 100, 20),
  offset: offsetSchema,
});

export type ArgumentUsesInput = z.infer<typeof argumentUsesInput>;

export const argumentUseSchema = z
  .object({
    /** The argument (the link): its relevance and impact are in the parent's list. */
    id: z.uuid(),
    /** Whether this claim is a reason for the parent or against it. */
    stance: z.enum(STANCES),
    /** The claim it argues for or against. */
    claim: claimSchema,
  })
  .meta({ id: "ArgumentUse" });

export const argumentUsesSchema = z
  .object({
    uses: z.array(argumentUseSchema),
    total: z.number().int(),
  })
  .meta({ id: "ArgumentUses" });

export type ArgumentUses = z.infer<typeof argumentUsesSchema>;

export const TREE_MAX_DEPTH = 4;
export const TREE_CHILDREN_PER_NODE = 50;
/**
 * The tree's budget (docs/features/arguments.md#the-trees-budget): at most this many argument nodes,
 * full or repeated, in one answer, and the whole answer's JSON at most TREE_MAX_BYTES.
 */
export const TREE_MAX_ARGUMENTS = 1000;
export const TREE_MAX_BYTES = 2_000_000;
export const treeInput = z.object({
  claim_id: pathId,
  depth: boundedInt("depth", 1, TREE_MAX_DEPTH, 2),
  format: z.enum(["json", "argdown"], { message: "format: must be json or argdown" }).default("json"),
});

export type TreeInput = z.infer<typeof treeInput>;

/** An argument whose child claim the answer shows in full at an earlier place: named, not repeated. */
export const argumentReferenceSchema = z
  .object({
    /** The argument (this link: its own relevance and impact are in the parent's list). */
    id: z.uuid(),
    stance: z.enum(STANCES),
    /** The child claim, shown in full once elsewhere in the same answer. */
    claim_id: z.uuid(),
    repeated: z.literal(true),
  })
  .meta({
    id: "ArgumentReference",
    description:
      "An argument whose child claim appears in full at its first place in the same answer (breadth-first, in the listed order); here only named, with no nested arguments.",
  });

export type ArgumentReference = z.infer<typeof argumentReferenceSchema>;
export type TreeArgumentNode = ArgumentOut & { arguments: TreeArgument[] };
export type TreeArgument = TreeArgumentNode | ArgumentReference;

const treeArgumentNodeSchema: z.ZodType<TreeArgumentNode> = argumentSchema
  .extend({
    /** The child's own arguments; empty at the depth asked, or where the budget was spent (see `continue_at`). */
    arguments: z.array(z.lazy(() => treeArgumentSchema)),
  })
  .meta({ id: "ArgumentTreeNode" });
const treeArgumentSchema: z.ZodType<TreeArgument> = z
  .union([treeArgumentNodeSchema, argumentReferenceSchema])
  .meta({ id: "ArgumentTreeItem", description: "An argument in the tree: in full (ArgumentTreeNode) or, where its claim is shown already, an ArgumentReference." });

export const treeContinuationSchema = z
  .object({
    claim_id: z.uuid(),
    /** The levels the answer would have shown under it: ask `/claims/{claim_id}/tree?depth=` this. */
    depth: z.number().int().min(1).max(TREE_MAX_DEPTH),
  })
  .meta({ id: "ArgumentTreeContinuation" });

export const treeSchema = z
  .object({
    claim: claimSchema,
    /**
     * At most TREE_CHILDREN_PER_NODE per node, by impact; each argument's own arguments nested to `depth`.
     * Each claim is shown in full once; elsewhere its argument is an ArgumentReference.
     */
    arguments: z.array(treeArgumentSchema),
    balance: z.number(),
    /** Whether the budget (TREE_MAX_ARGUMENTS argument nodes, TREE_MAX_BYTES) left arguments out. */
    truncated: z.boolean(),
    /** The claims shown in full whose arguments were left out, wholly or in part, in the answer's order. */
    continue_at: z.array(treeContinuationSchema),
  })
  .meta({ id: "ArgumentTree" });

export type ArgumentTree = z.infer<typeof treeSchema>;

/** `format=argdown`: the tree as Argdown text (the REST answer is the text itself, text/plain). */
export const argdownTextSchema = z.object({ argdown: z.string() }).meta({ id: "ArgdownText", [REST_TEXT]: "argdown" });
