// tRPC foundation: the context (who is calling), the procedure builders and the error formatter.
// Both the REST adapter (/api/v1) and the web UI's tRPC endpoint build their context here.
import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { grantedScopes, type Identity, type SessionAgent } from "../auth/identity.ts";
import { isStatementTimeout } from "../db/client.ts";
import { roleAllows, type Role } from "../domain/roles.ts";
import { markWrote, queryReadsReplica, replicaConfigured, withReadRoute } from "../db/read-routing.ts";
import { requiredScope, scopeAllows, type RequiredScope } from "../domain/scopes.ts";
import { AppError, badRequest, databaseBusy, forbidden, unauthorized } from "../errors.ts";
import { errorBody, toTRPCError } from "./errors.ts";
import { firstUnstorableField } from "../domain/text-guard.ts";

export interface Context {
  identity: Identity;
  /** The caller's IP address (rate limits, auth brute-force limits). */
  ip: string;
  /**
   * Set for the render of a page Next keeps and serves to everyone until its next event (a claim, a
   * profile): its reads go to the primary, never to a lagging replica (docs/features/page-cache.md).
   */
  keptRender?: boolean;
  /** The origin the caller reached the service at, for absolute URLs in answers (server/http/public-origin.ts). */
  origin?: string;
  /**
   * Conditional GETs on the REST surface: the request's If-Modified-Since, and what a procedure
   * answers — the Last-Modified to send, and whether the adapter should answer 304 instead.
   */
  http?: {
    ifModifiedSince?: string;
    lastModified?: string;
    notModified?: boolean;
    /** Set by a procedure whose REST answer is plain text (an Argdown tree): sent as text/plain instead of the JSON. */
    plainText?: string;
  };
}

export type ProcedureMeta = {
  /** HTTP status on success for the REST surface (default 200); 302: the output is {location, set_cookies}. */
  successStatus?: 200 | 201 | 202 | 204 | 302;
  /**
   * What an API key needs to call it (docs/api.md#api-keys). Default: `read` for a query, and for a mutation
   * `account` (no key may call it) until it names its scope. Access tokens and sessions pass any scope.
   */
  scope?: RequiredScope;
  /**
   * The role it needs (docs/features/moderation.md): anyone without it gets 403 `Insufficient permissions`. Declared
   * by the builders below (moderatorProcedure, adminProcedure), checked in publicProcedure.
   */
  role?: Role;
  /**
   * Units of the caller's API budget one call takes (docs/security.md#what-a-call-costs), one unless
   * declared: a number, or a function of the input as sent (not yet checked: the budget is charged first).
   */
  cost?: number | ((input: unknown) => number);
};

/** The units one call of a procedure with this meta takes, from its input as sent: a whole number, at least one. */
export function callCost(meta: ProcedureMeta | undefined, input: unknown): number {
  const cost = typeof meta?.cost === "function" ? meta.cost(input) : (meta?.cost ?? 1);
  return Number.isFinite(cost) ? Math.max(1, Math.floor(cost)) : 1;
}

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta<ProcedureMeta>>()
  .create({
    errorFormatter({ shape, error }) {
      const body = errorBody(error);
      // The web tRPC endpoint sends the shape as is: an internal error's message (maybe a database's) stays home.
      const message = error.code === "INTERNAL_SERVER_ERROR" ? body.detail : shape.message;
      // Never a stack trace (tRPC adds one outside production), whatever NODE_ENV says.
      const { stack: _stack, ...data } = shape.data;
      return { ...shape, message, data, ...body };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * The one place the service's errors become tRPC's (and so the REST status and {"detail"}): an AppError
 * thrown by a service or by the middlewares below becomes its tRPC code; a statement cut off by the
 * database's statement timeout is a 503 with a clean detail, never a 500.
 */
const serviceErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (cause instanceof AppError) throw toTRPCError(cause);
  if (isStatementTimeout(cause)) throw toTRPCError(databaseBusy());
  return result;
});

/**
 * With a read replica (DATABASE_REPLICA_URL): a query's reads go to the replica unless its caller wrote
 * recently or it renders a page kept for everyone; a mutation reads the primary and, when it succeeds, marks its caller (read-your-writes).
 */
const readRouting = t.middleware(async ({ ctx, type, next }) => {
  if (!replicaConfigured()) return next();
  const agentId = ctx.identity.kind === "agent" ? ctx.identity.agent.id : null;
  if (type === "query") return withReadRoute(await queryReadsReplica({ agentId, ip: ctx.ip, keptRender: ctx.keptRender }), () => next());
  const result = await withReadRoute(false, () => next());
  if (result.ok) await markWrote(agentId, ctx.ip).catch(() => {});
  return result;
});

/**
 * The endpoints that establish or end credentials ignore whatever credentials came along (docs/security.md#every-way-in):
 * a client that sends its expired access token with every call can still log in and refresh.
 */
const CREDENTIAL_PATHS = new Set([
  "/auth/register",
  "/auth/login",
  "/auth/refresh",
  "/auth/logout",
  "/auth/oauth/exchange",
  // Mailed links are followed by people who may hold a stale token (docs/features/accounts.md).
  "/auth/password-reset",
  "/auth/password-reset/confirm",
  "/auth/email/verify/confirm",
]);

/** Whether a call of `method path` is served as anonymous whatever credentials came along (the one rule; the REST adapter asks it too). */
export function ignoresCredentials(method: string | undefined, path: string | undefined): boolean {
  return method?.toUpperCase() === "POST" && CREDENTIAL_PATHS.has(path ?? "");
}

/**
 * Whether `identity` may call a procedure with this meta and type: the refusal (401/403) or null. The
 * one rule for credentials, scopes (API keys, MCP grants) and roles, for every entry point — REST,
 * /api/trpc, server components — and for the REST adapter's cached statistics, served without tRPC
 * (docs/api.md#discovery).
 */
export function refusal(identity: Identity, meta: ProcedureMeta | undefined, type: "query" | "mutation" | "subscription"): AppError | null {
  if (identity.kind === "invalid") return unauthorized();
  if (identity.kind === "agent" && !scopeAllows(grantedScopes(identity), requiredScope(meta?.scope, type))) return forbidden();
  // Roles: the one check, like scopes. The role is read with the identity on every request.
  if (meta?.role && meta.role !== "member") {
    if (identity.kind !== "agent") return unauthorized();
    if (!roleAllows(identity.agent.role, meta.role)) return forbidden();
  }
  return null;
}

/** Open to everyone; a token that was sent must still be valid (docs/api.md#sign-in), except on the credential endpoints. */
export const publicProcedure = t.procedure.use(serviceErrors).use(readRouting).use(async ({ ctx, meta, type, getRawInput, next }) => {
  if (ignoresCredentials(meta?.openapi?.method, meta?.openapi?.path)) {
    ctx = { ...ctx, identity: { kind: "anonymous" } };
  }
  if (ctx.identity.kind === "invalid") throw unauthorized();
  // API key and MCP grant scopes: the one check, for every entry point (REST, /api/trpc, server components).
  if (ctx.identity.kind === "agent" && !scopeAllows(grantedScopes(ctx.identity), requiredScope(meta?.scope, type))) throw forbidden();
  // Text PostgreSQL cannot store as sent (NUL, unpaired surrogates) is a 400 naming the field, never a
  // database error: every string of every input, path ids included (an id with a NUL is not an id
  // that could be found), on every entry point (REST, /api/trpc, server components).
  const field = firstUnstorableField(await getRawInput());
  if (field) throw badRequest(`${field}: must not contain NUL characters or unpaired surrogates`);
  const refused = refusal(ctx.identity, meta, type);
  if (refused) throw refused;
  const agent: SessionAgent | null = ctx.identity.kind === "agent" ? ctx.identity.agent : null;
  return next({ ctx: { ...ctx, agent } });
});

/** Requires a signed-in agent. */
export const agentProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.agent) throw unauthorized();
  return next({ ctx: { ...ctx, agent: ctx.agent } });
});

/**
 * Moderation (docs/features/moderation.md): a moderator or an admin, with an access token or a web session — never an
 * API key (scope `account`): a leaked key must not be able to take content down. The role is declared
 * in the meta so that the check in publicProcedure, which every entry point passes, enforces it.
 */
export const moderatorProcedure = agentProcedure.meta({ role: "moderator", scope: "account" });

/** Admin only (role changes), like moderatorProcedure. */
export const adminProcedure = agentProcedure.meta({ role: "admin", scope: "account" });
