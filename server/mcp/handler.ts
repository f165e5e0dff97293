// POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (docs/features/mcp.md). Each
// request gets its own SDK server and transport (no session: any instance behind a round-robin
// balancer answers any request), JSON responses rather than an SSE stream. In front of the SDK, the
// same guards as every way in: the Origin check the transport specification asks of servers (a
// foreign Origin → 403), a Bearer credential (access token, API key or MCP OAuth token; none or a bad
// one → 401 pointing at the protected-resource metadata, charged to the client address's anonymous
// budget), the one bounded body reader, the client IP the node-level guard decided, and the caller's
// budgets, charged at the door — per tool call what the REST call costs (one unit, more for a text
// search) and one per other JSON-RPC request. One of the doors (docs/architecture.md#the-door): tool
// calls go through the tRPC procedures with the caller's identity, so the door's checks run and the
// routers validate; a refused call is an isError result carrying the contract's {code, detail}.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { appRouter } from "../api/root.ts";
import { callErrorBody, createCallerFactory, type Context } from "../api/trpc.ts";
import { ANONYMOUS, grantedScopes, identityForMcp, type Identity } from "../auth/identity.ts";
import { dbReady } from "../db/client.ts";
import {
  bodyTooLarge,
  CROSS_SITE,
  errorAnswer,
  errorBodyOf,
  failureBody,
  METHOD_NOT_ALLOWED,
  RATE_LIMITED_BODY,
  rateLimitHeaders,
  toolError,
  toResponse,
  type Answer,
} from "../door/answers.ts";
import { admitCalls, chargeRequest, type Caller } from "../door/budgets.ts";
import { readWebBody, TOO_LARGE } from "../http/body-limit.ts";
import { clientIpFromHeaders } from "../http/client-ip.ts";
import { publicOrigin } from "../http/public-origin.ts";
import { fromAnotherSite } from "../http/same-origin.ts";
import type { RateLimitResult } from "../ratelimit/index.ts";
import { ERROR_SCHEMA } from "../rest/openapi.ts";
import { summarize } from "./summary.ts";
import { findTool, toolsFor, type ToolDefinition } from "./tools.ts";

export const MCP_PATH = "/mcp";
export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

const SERVER_INFO = { name: "claims-service", version: "1.0.0" };
const INSTRUCTIONS =
  "Claims assessment: search claims, read a claim with its consensus and evidence, vote how likely it is true " +
  "(0.0-1.0), add evidence and comments. Tool inputs and results are the REST API's (/api/v1/openapi.json).";

const createCaller = createCallerFactory(appRouter);

/** The methods /mcp answers (stateless: no GET stream to resume, no DELETE of a session). */
const ALLOW = "POST, OPTIONS";

// No CORS headers: a browser page may call /mcp only from this app's own origin (the Origin check).
const MCP_HEADERS: Record<string, string> = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

/** The door's answer with /mcp's own headers. */
const answer = (a: Answer): Response => toResponse({ ...a, headers: { ...MCP_HEADERS, ...a.headers } });

/** 401 with the pointer an MCP client follows to find the authorization server (RFC 9728 §5.1). */
function unauthorized(request: Request, identity: Identity, limit: RateLimitResult): Response {
  const metadata = `${publicOrigin(request)}${PROTECTED_RESOURCE_METADATA_PATH}`;
  const sent = identity.kind === "invalid";
  const challenge = sent ? `Bearer error="invalid_token", resource_metadata="${metadata}"` : `Bearer resource_metadata="${metadata}"`;
  const body = errorBodyOf(sent ? "invalid_token" : "unauthenticated", "Invalid or expired token");
  return answer(errorAnswer(body, { limit, headers: { "WWW-Authenticate": challenge } }));
}

type JsonRpcMessage = { method?: unknown; id?: unknown };

/** JSON-RPC requests (not notifications or responses) in the body that are not tool calls. */
function otherRequests(body: unknown): number {
  const messages = (Array.isArray(body) ? body : [body]) as JsonRpcMessage[];
  return messages.filter((m) => m && typeof m === "object" && typeof m.method === "string" && m.id !== undefined && m.method !== "tools/call").length;
}

/**
 * What a tool answers as structured content: its result, or — with isError — the error body every way in
 * answers with (docs/api.md#errors: errors that programs can act on). Both are declared, so a client that checks
 * structured content against the tool's schema (the MCP SDK's does, refused calls included) reads either.
 */
function resultOrError(result: NonNullable<ToolDefinition["outputSchema"]>) {
  const { $defs, ...rest } = result;
  return { type: "object" as const, ...($defs ? { $defs } : {}), anyOf: [rest, ERROR_SCHEMA] };
}

function toolListing(tool: ToolDefinition) {
  return {
    name: tool.name,
    title: tool.title,
    description: `${tool.description} (REST: ${tool.rest})`,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: resultOrError(tool.outputSchema) } : {}),
    annotations: tool.annotations,
  };
}

/** Calls the tool's procedure, as the caller, through the same routers as REST. */
async function callTool(tool: ToolDefinition, args: Record<string, unknown>, ctx: Context, limits: { last?: RateLimitResult }): Promise<CallToolResult> {
  const charged = await admitCalls(ctx, [{ meta: tool.meta, input: args }]);
  limits.last = charged.limit;
  if (charged.refused) return toolError(RATE_LIMITED_BODY);
  const caller = createCaller(ctx) as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>;
  const [area, name] = tool.procedure.split(".");
  try {
    const output = await caller[area][name](args);
    // The REST body exactly: dates as ISO strings, nothing but JSON.
    const structured = output === undefined ? undefined : (JSON.parse(JSON.stringify(output)) as Record<string, unknown>);
    return {
      content: [{ type: "text", text: summarize(tool.name, structured) }],
      ...(tool.outputSchema && structured ? { structuredContent: structured } : {}),
    };
  } catch (err) {
    return toolError(callErrorBody(err, { path: tool.procedure, log: `[mcp] ${tool.name} failed` }));
  }
}

type RequestSchema = Parameters<Server["setRequestHandler"]>[0];

function invalidParams(method: string, error: z.ZodError): McpError {
  const issues = error.issues.map((i) => `${i.path.join(".") || "request"}: ${i.message}`).join("; ");
  return new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${issues}`);
}

/**
 * The SDK's server, answering a request whose params do not match its method's schema with -32602
 * (invalid params), as JSON-RPC says. The SDK parses each request against the schema its handler was
 * registered with before the handler runs, and a mismatch comes out as -32603 (internal error): it
 * would tell the client the fault is ours (`tools/call` with `arguments: "x"`, `tools/list` with a
 * numeric cursor, `initialize` with a numeric protocolVersion). Every registration passes here, the
 * SDK's own (initialize, ping) included: the SDK is handed a schema that names only the method, and
 * the method's schema is checked inside the handler.
 */
class ParamsCheckingServer extends Server {
  override setRequestHandler<T extends RequestSchema>(schema: T, handler: Parameters<Server["setRequestHandler"]>[1]): void {
    const method = (schema as unknown as z.ZodObject<{ method: z.ZodLiteral<string> }>).shape.method.value;
    const anyParams = z.looseObject({ method: z.literal(method) });
    super.setRequestHandler(anyParams as unknown as T, (request, extra) => {
      const parsed = (schema as unknown as z.ZodType).safeParse(request);
      if (!parsed.success) throw invalidParams(method, parsed.error);
      return handler(parsed.data as never, extra);
    });
  }
}

function mcpServer(ctx: Context, scopes: Parameters<typeof toolsFor>[0], limits: { last?: RateLimitResult }): Server {
  const server = new ParamsCheckingServer(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolsFor(scopes).map(toolListing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = findTool(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(tool, request.params.arguments ?? {}, ctx, limits);
  });
  return server;
}

export async function handleMcp(request: Request): Promise<Response> {
  try {
    return await handle(request);
  } catch (err) {
    return answer(errorAnswer(failureBody(err, "[mcp] unexpected failure")));
  }
}

async function handle(request: Request): Promise<Response> {
  // The transport specification's Origin rule (servers must validate it, against DNS rebinding): a
  // request that names an Origin must come from this app's own. No Origin at all passes: agents and
  // other programs send none. With a configured public URL only its origin counts, not whatever Host the
  // request names (a rebinding page names its own in both).
  if (fromAnotherSite(request.headers, { publicUrlOnly: true })) return answer(errorAnswer(CROSS_SITE));
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { ...MCP_HEADERS, Allow: ALLOW } });
  // Stateless: no stream to resume (GET) and no session to end (DELETE).
  if (request.method !== "POST") return answer(errorAnswer(METHOD_NOT_ALLOWED, { headers: { Allow: ALLOW } }));

  // The body first (bounded): an oversized one is refused before anything else is looked at.
  const raw = await readWebBody(request);
  if (raw === TOO_LARGE) return answer(bodyTooLarge());

  await dbReady();
  const ip = clientIpFromHeaders(request.headers);
  // A request without a working credential is charged to its address's anonymous budget (429 once it
  // is spent), as on /api/v1: no credential needs no look-up, and guessing keys or tokens is throttled.
  // A working credential is looked up first and never held up by anonymous traffic from its address
  // (hosted clients share addresses, and every connect starts with an unauthenticated request).
  const authorization = request.headers.get("authorization");
  const identity: Identity = authorization ? await identityForMcp(authorization, publicOrigin(request)) : ANONYMOUS;
  if (identity.kind !== "agent") {
    const charged = await chargeRequest({ identity, ip });
    return charged.refused ? answer(charged.refused) : unauthorized(request, identity, charged.limit);
  }
  const caller: Caller = { identity, ip };
  const limits: { last?: RateLimitResult } = {};

  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    // JSON-RPC's own answer to a body that is not JSON (the protocol's, not an error body of the API).
    return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.ParseError, message: "Parse error: the body is not JSON" } }), {
      status: 400,
      headers: { ...MCP_HEADERS, "Content-Type": "application/json" },
    });
  }

  const others = otherRequests(body);
  if (others > 0) {
    const charged = await chargeRequest(caller, others);
    limits.last = charged.limit;
    if (charged.refused) return answer(charged.refused);
  }

  const ctx: Context = { ...caller, origin: publicOrigin(request) };
  const server = mcpServer(ctx, grantedScopes(identity), limits);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, { parsedBody: body });
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries({ ...MCP_HEADERS, ...rateLimitHeaders(limits.last) })) headers.set(k, v);
    const text = response.body ? await response.text() : null;
    return new Response(text, { status: response.status, headers });
  } finally {
    await server.close().catch(() => {});
  }
}
