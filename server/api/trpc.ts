// tRPC foundation: the context (who is calling), the procedure builders and the error formatter. Every
// way in ends here (docs/architecture.md#the-door): the base procedure runs the door's checks
// (server/door/calls.ts) once per call, and every error leaves as the one body ({code, detail, errors?}).
import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { Identity, SessionAgent } from "../auth/identity.ts";
import { isDatabaseBusy } from "../db/client.ts";
import { markWrote, queryReadsReplica, replicaConfigured, withReadRoute } from "../db/read-routing.ts";
import { failureBody, trpcErrorFields, type ErrorBody } from "../door/answers.ts";
import { callerOf, checkCall, type DoorMeta } from "../door/calls.ts";
import { AppError, databaseBusy, unauthenticated, type ErrorCode } from "../errors.ts";
import { logError } from "../log/logger.ts";
import { errorBody, toTRPCError } from "./errors.ts";

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

/** What a procedure declares: what the door reads (scope, role, cost, account attempts, credentials: server/door/calls.ts) and its REST success status. */
export type ProcedureMeta = DoorMeta & {
  /** HTTP status on success for the REST surface (default 200); 302: the output is {location, set_cookies}. */
  successStatus?: 200 | 201 | 202 | 204 | 302;
  /**
   * The error codes it answers beyond those its shape implies (docs/api.md#errors), e.g. `duplicate_claim`:
   * the OpenAPI document lists each operation's codes from these and the table (server/rest/openapi.ts).
   */
  errors?: readonly ErrorCode[];
};

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta<ProcedureMeta>>()
  .create({
    errorFormatter({ shape, error, path }) {
      // The one body (server/api/errors.ts), its code in data.error_code: tRPC's own `code` and
      // `data.code` keep their meaning (its client reads them).
      const { error_code, fields } = trpcErrorFields(errorBody(error, path));
      // The web tRPC endpoint sends the shape as is: an internal error's message (maybe a database's) stays home.
      const message = error.code === "INTERNAL_SERVER_ERROR" ? fields.detail : shape.message;
      // Never a stack trace (tRPC adds one outside production), whatever NODE_ENV says.
      const { stack: _stack, ...data } = shape.data;
      return { ...shape, message, data: { ...data, error_code }, ...fields };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * The body of what a direct call of a procedure (`path`, e.g. claims.list) threw — an MCP tool call, the
 * agents' site, a server component — or a service outside one: the same body /api/v1 and /api/trpc answer with. An unexpected
 * failure is logged here (`log`), as their adapters log theirs.
 */
export function callErrorBody(err: unknown, call: { path?: string; log: string }): ErrorBody {
  // A service's error met outside a procedure (the live stream's claim check) takes the same road.
  const error = err instanceof AppError ? toTRPCError(err) : err;
  if (!(error instanceof TRPCError)) return failureBody(error, call.log);
  if (error.code === "INTERNAL_SERVER_ERROR") logError(call.log, error.cause ?? error);
  return errorBody(error, call.path);
}

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
  if (isDatabaseBusy(cause)) throw toTRPCError(databaseBusy());
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
 * Open to everyone; a credential that was sent must still be valid (docs/api.md#sign-in), except on the
 * credential endpoints, which ignore it. The door's checks run here, once per call on every way in
 * (REST, /api/trpc, MCP, server components): credential, scope, the text guard, role.
 */
export const publicProcedure = t.procedure.use(serviceErrors).use(readRouting).use(async ({ ctx, meta, type, getRawInput, next }) => {
  const identity = callerOf(ctx.identity, meta);
  const refused = checkCall(identity, meta, type, await getRawInput());
  if (refused) throw refused;
  const agent: SessionAgent | null = identity.kind === "agent" ? identity.agent : null;
  return next({ ctx: { ...ctx, identity, agent } });
});

/** Requires a signed-in agent. */
export const agentProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.agent) throw unauthenticated();
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
