// The web UI's tRPC context: the caller is the agent of the NextAuth session cookie (never a Bearer
// token: the browser holds no API tokens), the IP is the peer Next saw. Used by the web tRPC endpoint
// (app/api/trpc) and by server components (server/api/server-caller.ts), so both resolve identity the
// same way and call the same procedures as the REST API.
import { TRPCError } from "@trpc/server";
import { clientIpFromHeaders, identityFromNextAuthRequest } from "../auth/nextauth.ts";
import { config } from "../config.ts";
import { dbReady } from "../db/client.ts";
import { limitAuthAttempt, limitCaller } from "../rest/limiter.ts";
import type { Context } from "./trpc.ts";

export async function createWebContext(headers: Headers): Promise<Context> {
  await dbReady();
  const identity = await identityFromNextAuthRequest(headers);
  const ip = clientIpFromHeaders({ "x-forwarded-for": headers.get("x-forwarded-for") ?? undefined }, config());
  return { identity, ip };
}

/** Procedures that guess credentials or create accounts: the REST API limits them per IP and email too. */
const AUTH_ATTEMPT_PROCEDURES = new Set(["auth.register", "auth.login", "auth.refresh"]);

/** One procedure call of a web tRPC request (tRPC's TRPCRequestInfo.calls). */
export interface WebCall {
  path: string;
  getRawInput(): Promise<unknown>;
}

/**
 * The web endpoint's rate limits: the same limiter and the same budgets as /api/v1 (per agent and tier,
 * per IP when anonymous; account attempts per IP and per email), so the browser is not a way around them.
 */
export async function enforceWebRateLimits(ctx: Context, calls: WebCall[]): Promise<void> {
  if (!(await limitCaller(ctx.identity, ctx.ip)).success) throw tooManyRequests();
  for (const call of calls) {
    if (!AUTH_ATTEMPT_PROCEDURES.has(call.path)) continue;
    const input = await call.getRawInput().catch(() => null);
    if (!(await limitAuthAttempt(ctx.ip, input)).success) throw tooManyRequests();
  }
}

const tooManyRequests = () => new TRPCError({ code: "TOO_MANY_REQUESTS", message: "Rate limit exceeded" });
