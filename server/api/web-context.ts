// The web UI's tRPC context: the caller is the agent of the NextAuth session cookie (the browser holds
// no API tokens) or of a Bearer credential a program sends, the IP is the peer Next saw. Used by the web tRPC endpoint
// (app/api/trpc) and by server components (server/api/server-caller.ts), so both resolve identity the
// same way and call the same procedures as the REST API.
import "server-only";
import { ANONYMOUS, identityFromAuthorization } from "../auth/identity.ts";
import { identityFromNextAuthRequest } from "../nextauth/session.ts";
import { clientIpFromHeaders } from "../http/client-ip.ts";
import { dbReady } from "../db/client.ts";
import { rateLimitedError } from "../door/answers.ts";
import { admitCalls } from "../door/budgets.ts";
import type { DoorMeta } from "../door/calls.ts";
import { toTRPCError } from "./errors.ts";
import type { Context } from "./trpc.ts";

export async function createWebContext(headers: Headers): Promise<Context> {
  const anonymous = await anonymousWebContext(headers);
  return { ...anonymous, identity: await webIdentity(headers) };
}

/** The same context with nobody signed in, whatever the request carries (pages shared by every viewer). */
export async function anonymousWebContext(headers: Headers): Promise<Context> {
  await dbReady();
  // Decided once at the node:http level from the socket (and TRUST_PROXY), never from what the client wrote.
  return { identity: ANONYMOUS, ip: clientIpFromHeaders(headers) };
}

/**
 * The context of a render that belongs to no request: a page Next renders once and keeps for every
 * viewer (docs/features/page-cache.md). Nobody is signed in and there is no client address; reading
 * the request's headers here would make Next render the page for each request instead. It reads the
 * primary: the copy it makes is served until the page's next event, a lagging replica's answer with it.
 */
export async function sharedRenderContext(): Promise<Context> {
  await dbReady();
  return { identity: ANONYMOUS, ip: "0.0.0.0", keptRender: true };
}

/**
 * A Bearer credential (access token or API key), when one is sent, goes through the same resolution
 * as on /api/v1 — so a key's scopes bind here too; otherwise the session cookie.
 */
function webIdentity(headers: Headers) {
  const authorization = headers.get("authorization");
  if (authorization && /^Bearer\s/i.test(authorization)) return identityFromAuthorization(authorization);
  return identityFromNextAuthRequest(headers);
}

/** One procedure call of a web tRPC request (tRPC's TRPCRequestInfo.calls). */
export interface WebCall {
  getRawInput(): Promise<unknown>;
  /** The procedure called, null when there is none by that path (tRPC answers 404 for it). */
  procedure: { _def: { meta?: unknown } } | null;
}

/**
 * The web endpoint's budgets: the door's, as on /api/v1 (per agent and tier, per IP when anonymous, one
 * unit per procedure or what it declares, so a batch of 10 plain calls is 10 calls' work; the account
 * attempts of the calls that make one), so the browser is not a way around them.
 */
export async function admitWebCalls(ctx: Context, calls: WebCall[]): Promise<void> {
  const charged = await admitCalls(ctx, calls.map((call) => ({ meta: call.procedure?._def.meta as DoorMeta | undefined, readInput: call.getRawInput })));
  if (charged.refused) throw toTRPCError(rateLimitedError());
}
