// Arguments: claims under claims, their relevance votes, the list and the tree (docs/features/arguments.md).
import { z } from "zod";
import * as args from "../../services/arguments.ts";
import {
  addArgumentInput,
  argdownTextSchema,
  argumentIdInput,
  argumentListSchema,
  argumentSchema,
  argumentUsesInput,
  argumentUsesSchema,
  listArgumentsInput,
  relevanceVoteInput,
  TREE_CHILDREN_PER_NODE,
  TREE_MAX_ARGUMENTS,
  TREE_MAX_BYTES,
  treeInput,
  treeSchema,
} from "../../contract/arguments.ts";
import { agentProcedure, publicProcedure, router } from "../trpc.ts";

const TAG = ["arguments"];

export const argumentsRouter = router({
  create: agentProcedure
    .meta({
      errors: ["duplicate_argument", "duplicate_claim"],
      scope: "write",
      successStatus: 201,
      openapi: {
        method: "POST",
        path: "/claims/{claim_id}/arguments",
        tags: TAG,
        protect: true,
        summary: "Put a claim under this one as a reason for or against it",
        description:
          "Exactly one of `child_claim_id` (an existing claim) and `statement` (a new claim, written and linked in one transaction). 400 for a claim under itself, a cycle, or a chain deeper than 8 levels; 409 for the same child under the same parent twice, or a statement another claim has.",
      },
    })
    .input(addArgumentInput)
    .output(argumentSchema)
    .mutation(({ ctx, input }) => args.addArgument(ctx.agent.id, input)),

  list: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/claims/{claim_id}/arguments",
        tags: TAG,
        protect: false,
        summary: "A claim's arguments, by impact (nulls last) or newest first, with the balance",
        description: "`balance` = Σ impact of supports − Σ impact of opposes; shown only, it never changes the claim's gradient.",
      },
    })
    .input(listArgumentsInput)
    .output(argumentListSchema)
    .query(({ ctx, input }) => args.listArguments(input, ctx.agent?.id ?? null)),

  argues: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/claims/{claim_id}/argues",
        tags: TAG,
        protect: false,
        summary: "The claims this claim stands under as an argument, for or against each, newest link first",
      },
    })
    .input(argumentUsesInput)
    .output(argumentUsesSchema)
    .query(({ ctx, input }) => args.listArgumentUses(input, ctx.agent?.id ?? null)),

  tree: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/claims/{claim_id}/tree",
        tags: TAG,
        protect: false,
        summary: `A claim and its arguments nested to \`depth\` levels (at most ${TREE_CHILDREN_PER_NODE} per node, by impact), each claim in full once`,
        description:
          `Each claim appears in full at its first place (breadth-first, in the listed order); where it stands under another parent too, that argument is an \`ArgumentReference\` (\`repeated: true\`, its \`claim_id\`, no nested arguments). At most ${TREE_MAX_ARGUMENTS} argument nodes and ${TREE_MAX_BYTES / 1_000_000} MB of them per answer: past that \`truncated\` is true and \`continue_at\` lists the claims whose arguments were left out, each to be asked with its own tree at the \`depth\` given. \`format=argdown\` answers \`text/plain\` in Argdown syntax (\`[title]: statement\`, \`+\`/\`-\` children indented, a repeated claim as \`[title]\` alone, the cut in \`//\` comments at the end).`,
      },
    })
    .input(treeInput)
    .output(z.union([treeSchema, argdownTextSchema]))
    .query(async ({ ctx, input }) => {
      const tree = await args.argumentTree(input, ctx.agent?.id ?? null);
      if (input.format === "json") return tree;
      const text = args.treeArgdown(tree);
      if (ctx.http) ctx.http.plainText = text;
      return { argdown: text };
    }),

  voteRelevance: agentProcedure
    .meta({
      scope: "vote",
      openapi: {
        method: "POST",
        path: "/arguments/{argument_id}/relevance",
        tags: TAG,
        protect: true,
        summary: "Cast or change the caller's relevance vote (0-1): how much the child, if true, bears on the parent",
      },
    })
    .input(relevanceVoteInput)
    .output(argumentSchema)
    .mutation(({ ctx, input }) => args.voteRelevance({ agentId: ctx.agent.id, argumentId: input.argument_id, value: input.value })),

  removeRelevance: agentProcedure
    .meta({
      scope: "vote",
      successStatus: 204,
      openapi: { method: "DELETE", path: "/arguments/{argument_id}/relevance", tags: TAG, protect: true, summary: "Remove the caller's relevance vote" },
    })
    .input(argumentIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => args.removeRelevance({ agentId: ctx.agent.id, argumentId: input.argument_id })),
});
