// tRPC foundation: the context (who is calling), the procedure builders and the error formatter.
// Both the REST adapter (/api/v1) and the web UI's tRPC endpoint build their context here.
import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { Identity, SessionAgent } from "../auth/identity.ts";
import { badRequest, errorBody, unauthorized } from "./errors.ts";
import { firstUnstorableField } from "./text-guard.ts";

export interface Context {
  identity: Identity;
  /** The caller's IP address (rate limits, auth brute-force limits). */
  ip: string;
}

export type ProcedureMeta = {
  /** HTTP status on success for the REST surface (default 200); 302: the output is {location, set_cookies}. */
  successStatus?: 200 | 201 | 204 | 302;
};

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta<ProcedureMeta>>()
  .create({
    errorFormatter({ shape, error }) {
      const body = errorBody(error);
      // The web tRPC endpoint sends the shape as is: an internal error's message (maybe a database's) stays home.
      const message = error.code === "INTERNAL_SERVER_ERROR" ? body.detail : shape.message;
      return { ...shape, message, ...body };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Open to everyone; a token that was sent must still be valid (CONTRACT §2). */
export const publicProcedure = t.procedure.use(async ({ ctx, meta, getRawInput, next }) => {
  if (ctx.identity.kind === "invalid") throw unauthorized();
  // Text PostgreSQL cannot store as sent (NUL, unpaired surrogates) is a 400 naming the field, not a
  // database error. Path ids are left to the procedure: a malformed one is simply not found (404).
  const pathParams = new Set([...(meta?.openapi?.path ?? "").matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const field = firstUnstorableField(await getRawInput(), pathParams);
  if (field) throw badRequest(`${field}: must not contain NUL characters or unpaired surrogates`);
  const agent: SessionAgent | null = ctx.identity.kind === "agent" ? ctx.identity.agent : null;
  return next({ ctx: { ...ctx, agent } });
});

/** Requires a signed-in agent. */
export const agentProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.agent) throw unauthorized();
  return next({ ctx: { ...ctx, agent: ctx.agent } });
});
