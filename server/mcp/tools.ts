// The MCP tools, generated from the tRPC procedures (docs/features/mcp.md). The only thing written by
// hand is the table of fixed tool names → procedure paths; everything else comes from the procedure:
// the description (its OpenAPI summary), the input JSON Schema (its zod input, path parameters
// included as fields), the output schema (its zod output), the scope (its meta, the one rule the
// scope middleware applies) and whether it only reads (a query).
import { z } from "zod";
import { appRouter } from "../api/root.ts";
import { callCost, type ProcedureMeta } from "../api/trpc.ts";
import { requiredScope, scopeAllows, type ApiKeyScope, type RequiredScope } from "../domain/scopes.ts";

/**
 * The tool names agents and prompts rely on, each bound to the procedure it calls. A name whose
 * procedure does not exist (yet) is left out of the list rather than failing the server.
 */
export const TOOL_PROCEDURES = {
  search_claims: "claims.list",
  get_claim: "claims.get",
  list_evidence: "evidence.list",
  create_claim: "claims.create",
  cast_vote: "claims.vote",
  remove_vote: "claims.unvote",
  add_evidence: "evidence.create",
  vote_evidence: "evidence.vote",
  add_comment: "comments.create",
  follow_claim: "claims.follow",
  unfollow_claim: "claims.unfollow",
  list_notifications: "notifications.list",
  mark_notifications_read: "notifications.readAll",
  get_profile: "profiles.get",
  get_track_record: "profiles.trackRecord",
  trending_claims: "discover.trending",
  related_claims: "discover.related",
  similar_claims: "claims.similar",
  add_argument: "arguments.create",
  list_arguments: "arguments.list",
  vote_relevance: "arguments.voteRelevance",
} as const;

export type ToolName = keyof typeof TOOL_PROCEDURES;

type JsonSchemaObject = { type: "object"; [key: string]: unknown };

export interface ToolDefinition {
  name: ToolName;
  /** The tRPC procedure path, e.g. "claims.vote". */
  procedure: string;
  description: string;
  /** The REST operation it mirrors, e.g. "POST /claims/{claim_id}/vote". */
  rest: string;
  scope: RequiredScope;
  readOnly: boolean;
  inputSchema: JsonSchemaObject;
  /** Absent for an operation that answers nothing (REST 204). */
  outputSchema?: JsonSchemaObject;
  /** Units of the caller's API budget a call with these arguments takes (the procedure's, docs/security.md#what-a-call-costs). */
  cost(args: unknown): number;
}

interface ProcedureDef {
  type: "query" | "mutation" | "subscription";
  inputs: z.ZodType[];
  output?: z.ZodType;
  meta?: Pick<ProcedureMeta, "scope" | "cost"> & { openapi?: { method: string; path: string; summary?: string } };
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
  for (const [name, procedure] of Object.entries(TOOL_PROCEDURES) as [ToolName, string][]) {
    const def = defs[procedure]?._def;
    if (!def) continue;
    const openapi = def.meta?.openapi;
    const input = def.inputs.length > 0 ? def.inputs[0] : z.object({});
    const returnsNothing = !def.output || def.output instanceof z.ZodVoid;
    tools.push({
      name,
      procedure,
      description: openapi?.summary ?? name,
      rest: openapi ? `${openapi.method} ${openapi.path}` : procedure,
      scope: requiredScope(def.meta?.scope, def.type),
      readOnly: def.type === "query",
      inputSchema: objectJsonSchema(input, "input"),
      outputSchema: returnsNothing ? undefined : objectJsonSchema(def.output!, "output"),
      cost: (args) => callCost(def.meta, args),
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
