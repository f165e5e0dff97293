// The MCP tools, generated from the tRPC procedures (docs/features/mcp.md). The only thing written by
// hand is the table of fixed tool names → procedure paths; everything else comes from the procedure:
// the description (its OpenAPI summary), the input JSON Schema (its zod input, path parameters
// included as fields), the output schema (its zod output), the scope (its meta, the one rule the
// scope middleware applies) and whether it only reads (a query).
import { z } from "zod";
import { appRouter } from "../api/root.ts";
import type { ProcedureMeta } from "../api/trpc.ts";
import type { DoorMeta } from "../door/calls.ts";
import { requiredScope, scopeAllows, type ApiKeyScope, type RequiredScope } from "../domain/scopes.ts";

/**
 * The tools agents and prompts rely on (docs/features/mcp.md#tools): each name bound to the procedure it
 * calls, with what a person sees in a client (title) and what a client may assume of a call
 * (annotations). `destructive`: the call removes or undoes something; `idempotent`: calling it again
 * with the same arguments changes nothing more. Read tools are neither (they change nothing). A name
 * whose procedure does not exist (yet) is left out of the list rather than failing the server.
 */
export const TOOLS = {
  search_claims: { procedure: "claims.list", title: "Search claims" },
  get_claim: { procedure: "claims.get", title: "Read a claim" },
  list_evidence: { procedure: "evidence.list", title: "List a claim's evidence" },
  create_claim: { procedure: "claims.create", title: "Submit a claim", destructive: false, idempotent: false },
  cast_vote: { procedure: "claims.vote", title: "Vote on a claim", destructive: false, idempotent: true },
  remove_vote: { procedure: "claims.unvote", title: "Remove your vote", destructive: true, idempotent: true },
  add_evidence: { procedure: "evidence.create", title: "Add evidence", destructive: false, idempotent: false },
  vote_evidence: { procedure: "evidence.vote", title: "Rate a piece of evidence", destructive: false, idempotent: true },
  add_comment: { procedure: "comments.create", title: "Comment on a claim", destructive: false, idempotent: false },
  follow_claim: { procedure: "claims.follow", title: "Follow a claim", destructive: false, idempotent: true },
  unfollow_claim: { procedure: "claims.unfollow", title: "Stop following a claim", destructive: true, idempotent: true },
  list_notifications: { procedure: "notifications.list", title: "List your notifications" },
  mark_notifications_read: { procedure: "notifications.readAll", title: "Mark notifications read", destructive: false, idempotent: true },
  get_profile: { procedure: "profiles.get", title: "Read a profile" },
  get_track_record: { procedure: "profiles.trackRecord", title: "Read a track record" },
  trending_claims: { procedure: "discover.trending", title: "Trending claims" },
  related_claims: { procedure: "discover.related", title: "Related claims" },
  similar_claims: { procedure: "claims.similar", title: "Find similar claims" },
  add_argument: { procedure: "arguments.create", title: "Add an argument", destructive: false, idempotent: false },
  list_arguments: { procedure: "arguments.list", title: "List a claim's arguments" },
  vote_relevance: { procedure: "arguments.voteRelevance", title: "Rate an argument's relevance", destructive: false, idempotent: true },
  propose_outcome: { procedure: "checks.propose", title: "Propose a claim's outcome", destructive: false, idempotent: false },
  dispute_outcome: { procedure: "checks.dispute", title: "Dispute a proposed outcome", destructive: false, idempotent: false },
  search: {
    procedure: "research.search",
    title: "Search claims to cite",
    description: "Claims matching any of the query's words, best first: one text item holding {\"results\":[{id, title, url}]} (for deep-research clients)",
  },
  fetch: {
    procedure: "research.fetch",
    title: "Read a claim as text",
    description: "A claim found by `search`, as {id, title, text, url, metadata}: text is the claim page's Markdown twin (for deep-research clients)",
  },
} as const satisfies Record<string, ToolEntry>;

/** A row of the tool table: writes must decide both hints (a test reads the table). */
type ToolEntry = { procedure: string; title: string; destructive?: boolean; idempotent?: boolean; description?: string };

/** The tool names → procedure paths (the table's first column). */
export const TOOL_PROCEDURES = Object.fromEntries(Object.entries(TOOLS).map(([name, t]) => [name, t.procedure])) as {
  [K in keyof typeof TOOLS]: (typeof TOOLS)[K]["procedure"];
};

export type ToolName = keyof typeof TOOLS;

type JsonSchemaObject = { type: "object"; [key: string]: unknown };

export interface ToolDefinition {
  name: ToolName;
  /** The tRPC procedure path, e.g. "claims.vote". */
  procedure: string;
  /** What a person sees in a client's tool list. */
  title: string;
  description: string;
  /** The MCP tool annotations: what a client may assume of a call (the table's hints). */
  annotations: ToolAnnotations;
  /** The REST operation it mirrors, e.g. "POST /claims/{claim_id}/vote" ("— (MCP only)" for search and fetch). */
  rest: string;
  scope: RequiredScope;
  readOnly: boolean;
  inputSchema: JsonSchemaObject;
  /** Absent for an operation that answers nothing (REST 204). */
  outputSchema?: JsonSchemaObject;
  /** What the door reads of the procedure: its cost and whether it makes an account attempt (docs/security.md#what-a-call-costs). */
  meta: DoorMeta | undefined;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: false;
}

/** A read changes nothing (no further hints); a write carries the table's two decisions. */
function annotationsOf(entry: ToolEntry, readOnly: boolean): ToolAnnotations {
  if (readOnly) return { readOnlyHint: true, openWorldHint: false };
  return { readOnlyHint: false, destructiveHint: entry.destructive, idempotentHint: entry.idempotent, openWorldHint: false };
}

interface ProcedureDef {
  type: "query" | "mutation" | "subscription";
  inputs: z.ZodType[];
  output?: z.ZodType;
  meta?: ProcedureMeta & { openapi?: { method: string; path: string; summary?: string } };
}

function procedureDefs(): Record<string, { _def: ProcedureDef }> {
  return (appRouter._def as unknown as { procedures: Record<string, { _def: ProcedureDef }> }).procedures;
}

/**
 * A zod schema as a JSON Schema object at its root (MCP requires `type: "object"` there): a root that
 * is a reference to a named schema ($defs) is replaced by that schema, the definitions kept for the
 * references inside it. The `$schema` key is left out: MCP's default dialect is 2020-12 already.
 */
export function objectJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchemaObject {
  const raw = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema: _dialect, ...rest } = raw;
  const defs = rest.$defs as Record<string, Record<string, unknown>> | undefined;
  const ref = typeof rest.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(rest.$ref) : null;
  const root = ref && defs?.[ref[1]] ? { ...defs[ref[1]], $defs: defs } : rest;
  return { ...root, type: "object" } as JsonSchemaObject;
}

function buildTools(): ToolDefinition[] {
  const defs = procedureDefs();
  const tools: ToolDefinition[] = [];
  for (const [name, entry] of Object.entries(TOOLS) as [ToolName, ToolEntry][]) {
    const procedure = entry.procedure;
    const def = defs[procedure]?._def;
    if (!def) continue;
    const openapi = def.meta?.openapi;
    const input = def.inputs.length > 0 ? def.inputs[0] : z.object({});
    const returnsNothing = !def.output || def.output instanceof z.ZodVoid;
    tools.push({
      name,
      procedure,
      title: entry.title,
      description: entry.description ?? openapi?.summary ?? name,
      annotations: annotationsOf(entry, def.type === "query"),
      rest: openapi ? `${openapi.method} ${openapi.path}` : "— (MCP only)",
      scope: requiredScope(def.meta?.scope, def.type),
      readOnly: def.type === "query",
      inputSchema: objectJsonSchema(input, "input"),
      outputSchema: returnsNothing ? undefined : objectJsonSchema(def.output!, "output"),
      meta: def.meta,
    });
  }
  return tools;
}

let cached: ToolDefinition[] | undefined;

/** Every tool, in the table's order (built once per process). */
export function allTools(): ToolDefinition[] {
  return (cached ??= buildTools());
}

export function findTool(name: string): ToolDefinition | undefined {
  return allTools().find((t) => t.name === name);
}

/** The tools a credential may call: null scopes (an access token, a session) may call every tool. */
export function toolsFor(scopes: readonly ApiKeyScope[] | null): ToolDefinition[] {
  return allTools().filter((t) => scopeAllows(scopes, t.scope));
}
