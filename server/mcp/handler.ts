// POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (docs/features/mcp.md). Each
// request gets its own SDK server and transport (no session: any instance behind a round-robin
// balancer answers any request), JSON responses rather than an SSE stream. In front of the SDK, the
// same guards as every way in: the Origin check the transport specification asks of servers (a
// foreign Origin → 403), a Bearer credential (access token, API key or MCP OAuth token; none or a bad
// one → 401 pointing at the protected-resource metadata, charged to the client address's anonymous
// budget), the one bounded body reader, the client IP the node-level guard decided, and the caller's
// rate limit — per tool call what the REST call costs (one unit, more for a text search) and one per
// other JSON-RPC request.
// Tool calls go through the tRPC procedures with the caller's identity, so the routers validate,
// check scopes and answer errors.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { errorBody } from "../api/errors.ts";
import { appRouter } from "../api/root.ts";
import { createCallerFactory, type Context } from "../api/trpc.ts";
import { ANONYMOUS, grantedScopes, identityForMcp } from "../auth/identity.ts";
import { config } from "../config.ts";
import { dbReady } from "../db/client.ts";
import { readWebBody, TOO_LARGE, tooLargeDetail } from "../http/body-limit.ts";
import { clientIpFromHeaders } from "../http/client-ip.ts";
import { publicOrigin } from "../http/public-origin.ts";
import { crossSiteRefusal } from "../http/same-origin.ts";
import { logError } from "../log/logger.ts";
import type { RateLimitResult } from "../ratelimit/index.ts";
import { limitCaller } from "../ratelimit/limiter.ts";
import { summarize } from "./summary.ts";
import { findTool, toolsFor, type ToolDefinition } from "./tools.ts";

export const MCP_PATH = "/mcp";
export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

const SERVER_INFO = { name: "claims-service", version: "1.0.0" };
const INSTRUCTIONS =
  "Claims assessment: search claims, read a claim with its consensus and evidence, vote how likely it is true " +
  "(0.0-1.0), add evidence and comments. Tool inputs and results are the REST API's (/api/v1/openapi.json).";

const createCaller = createCallerFactory(appRouter);

// No CORS headers: a browser page may call /mcp only from this app's own origin (the Origin check).
const BASE_HEADERS: Record<string, string> = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...BASE_HEADERS, "Content-Type": "application/json", ...headers } });
}

function rateLimitHeaders(r: RateLimitResult | undefined): Record<string, string> {
  if (!r) return {};
  const h: Record<string, string> = { "X-RateLimit-Limit": String(r.limit), "X-RateLimit-Remaining": String(r.remaining), "X-RateLimit-Reset": String(r.reset) };
  if (!r.success) h["Retry-After"] = String(r.retryAfter);
  return h;
}

/** 401 with the pointer an MCP client follows to find the authorization server (RFC 9728 §5.1). */
function unauthorized(request: Request, sent: boolean, limit: RateLimitResult): Response {
  const metadata = `${publicOrigin(request)}${PROTECTED_RESOURCE_METADATA_PATH}`;
  const challenge = sent ? `Bearer error="invalid_token", resource_metadata="${metadata}"` : `Bearer resource_metadata="${metadata}"`;
  return json(401, { detail: "Invalid or expired token" }, { "WWW-Authenticate": challenge, ...rateLimitHeaders(limit) });
}

function tooManyRequests(limit: RateLimitResult): Response {
  return json(429, { detail: "Rate limit exceeded" }, rateLimitHeaders(limit));
}

/**
 * The transport specification's Origin rule (servers must validate it, against DNS rebinding): a
 * request that names an Origin must come from this app's own. No Origin at all passes: agents and
 * other programs send none. With a configured public URL (NEXTAUTH_URL) only its origin counts, not
 * whatever Host the request names (a rebinding page names its own in both).
 */
function foreignOrigin(request: Request): Response | null {
  const cfg = config();
  const refusal = crossSiteRefusal(request.headers, cfg.NEXTAUTH_URL, cfg.TRUST_PROXY > 0, { hostCounts: !cfg.NEXTAUTH_URL });
  return refusal ? json(403, { detail: refusal }) : null;
}

type JsonRpcMessage = { method?: unknown; id?: unknown };

/** JSON-RPC requests (not notifications or responses) in the body that are not tool calls. */
function otherRequests(body: unknown): number {
  const messages = (Array.isArray(body) ? body : [body]) as JsonRpcMessage[];
  return messages.filter((m) => m && typeof m === "object" && typeof m.method === "string" && m.id !== undefined && m.method !== "tools/call").length;
}

function toolListing(tool: ToolDefinition) {
  return {
    name: tool.name,
    title: tool.title,
    description: `${tool.description} (REST: ${tool.rest})`,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
  };
}

function refused(detail: string): CallToolResult {
  return { content: [{ type: "text", text: detail }], isError: true };
}

/** Calls the tool's procedure, as the caller, through the same routers as REST. */
async function callTool(tool: ToolDefinition, args: Record<string, unknown>, ctx: Context, limits: { last?: RateLimitResult }): Promise<CallToolResult> {
  const limit = await limitCaller(ctx.identity, ctx.ip, tool.cost(args));
  limits.last = limit;
  if (!limit.success) return refused("Rate limit exceeded");
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
    if (err instanceof TRPCError) {
      if (err.code === "INTERNAL_SERVER_ERROR") logError(`[mcp] ${tool.name} failed`, err.cause ?? err);
      return refused(errorBody(err).detail);
    }
    logError(`[mcp] ${tool.name} failed`, err);
    return refused("Internal server error");
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

function methodNotAllowed(): Response {
  return json(405, { detail: "Method not allowed" }, { Allow: "POST, OPTIONS" });
}

export async function handleMcp(request: Request): Promise<Response> {
  try {
    return await handle(request);
  } catch (err) {
    logError("[mcp] unexpected failure", err);
    return json(500, { detail: "Internal server error" });
  }
}

async function handle(request: Request): Promise<Response> {
  const foreign = foreignOrigin(request);
  if (foreign) return foreign;
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { ...BASE_HEADERS, Allow: "POST, OPTIONS" } });
  // Stateless: no stream to resume (GET) and no session to end (DELETE).
  if (request.method !== "POST") return methodNotAllowed();

  // The body first (bounded): an oversized one is refused before anything else is looked at.
  const raw = await readWebBody(request);
  if (raw === TOO_LARGE) return json(413, { detail: tooLargeDetail() }, { Connection: "close" });

  await dbReady();
  const ip = clientIpFromHeaders(request.headers);
  // A request without a working credential is charged to its address's anonymous budget (429 once it
  // is spent), as on /api/v1: no credential needs no look-up, and guessing keys or tokens is throttled.
  // A working credential is looked up first and never held up by anonymous traffic from its address
  // (hosted clients share addresses, and every connect starts with an unauthenticated request).
  const authorization = request.headers.get("authorization");
  if (!authorization) {
    const charged = await limitCaller(ANONYMOUS, ip, 1);
    return charged.success ? unauthorized(request, false, charged) : tooManyRequests(charged);
  }
  const identity = await identityForMcp(authorization, publicOrigin(request));
  if (identity.kind !== "agent") {
    const charged = await limitCaller(identity, ip, 1);
    return charged.success ? unauthorized(request, Boolean(authorization), charged) : tooManyRequests(charged);
  }
  const limits: { last?: RateLimitResult } = {};

  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return json(400, { jsonrpc: "2.0", id: null, error: { code: ErrorCode.ParseError, message: "Parse error: the body is not JSON" } });
  }

  const others = otherRequests(body);
  if (others > 0) {
    limits.last = await limitCaller(identity, ip, others);
    if (!limits.last.success) return tooManyRequests(limits.last);
  }

  const ctx: Context = { identity, ip, origin: publicOrigin(request) };
  const server = mcpServer(ctx, grantedScopes(identity), limits);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, { parsedBody: body });
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries({ ...BASE_HEADERS, ...rateLimitHeaders(limits.last) })) headers.set(k, v);
    const text = response.body ? await response.text() : null;
    return new Response(text, { status: response.status, headers });
  } finally {
    await server.close().catch(() => {});
  }
}
