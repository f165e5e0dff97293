// What a request may spend (docs/security.md#limits-what-each-protects-and-how-it-is-keyed), charged at
// the door: the only caller of the limiter (server/ratelimit) for requests. Each way in names what it
// charges here — procedure calls by their meta (cost, account attempts), a request that names no
// procedure one unit, a page render one unit of the page budget — and gets the budget as it stands and,
// when it is spent, the refusal to send (server/door/answers.ts). A new budget, or a new way in, is a
// change to this file.
import { ANONYMOUS, type Identity } from "../auth/identity.ts";
import { mostRestrictive, type RateLimitResult } from "../ratelimit/index.ts";
import { rateLimiter } from "../ratelimit/limiter.ts";
import { pageRateLimited, rateLimited, type Answer } from "./answers.ts";
import { isAttempt, unitsOf, type Call } from "./calls.ts";

/** Who is charged: an agent by id and tier, anyone else (an invalid credential included) by its client address. */
export interface Caller {
  identity: Identity;
  ip: string;
}

/** What a charge leaves: the budget as it stands (for the X-RateLimit-* headers) and, once spent, the refusal. */
export interface Charge {
  limit: RateLimitResult;
  refused: Answer | null;
}

/** `budgetHeaders: false`: the refusal says Retry-After only (answers that never carried X-RateLimit-*). */
const charge = (limit: RateLimitResult, budgetHeaders = true): Charge => ({
  limit,
  refused: limit.success ? null : rateLimited(limit, { budgetHeaders }),
});

/** The API budget's key: an agent by id (its tier sets the size), anyone else by client address. */
const budgetOf = ({ identity, ip }: Caller) => (identity.kind === "agent" ? { agentId: identity.agent.id, tier: identity.agent.tier } : { ip });

const apiBudget = (caller: Caller, units: number): Promise<RateLimitResult> => rateLimiter().limitRequest(budgetOf(caller), units);

/**
 * The API budget of these procedure calls, together: one unit each or what its procedure declares
 * (docs/security.md#what-a-call-costs), so a tRPC batch of 10 costs 10 and one that does not fit in
 * what is left is refused whole, counting nothing.
 */
export async function chargeCalls(caller: Caller, calls: Call[]): Promise<Charge> {
  let units = 0;
  for (const call of calls) units += await unitsOf(call);
  return charge(await apiBudget(caller, Math.max(1, units)));
}

/**
 * The client's account attempts (10 per 15 minutes) for each of these calls that makes one (meta
 * `attempt`), after the API budget (`spent`: where it stands now); the budget the answer's headers show
 * is the more restrictive of the two. Guessing one account's password from many clients is bounded where
 * the password is checked (services/auth.ts verifyCredentials), so that it never locks the owner out.
 */
export async function chargeAttempts(caller: Caller, calls: Call[], spent: RateLimitResult): Promise<Charge> {
  let limit = spent;
  for (const call of calls) {
    if (!isAttempt(call.meta)) continue;
    const attempt = await rateLimiter().limitAuthAttempt(caller.ip);
    limit = mostRestrictive([limit, attempt]);
    if (!attempt.success) return charge(limit);
  }
  return { limit, refused: null };
}

/** Both budgets of these calls, one after the other (the web tRPC endpoint and MCP: nothing is read between them). */
export async function admitCalls(caller: Caller, calls: Call[]): Promise<Charge> {
  const api = await chargeCalls(caller, calls);
  return api.refused ? api : chargeAttempts(caller, calls, api.limit);
}

/**
 * Units of the API budget for a request that names no procedure: an MCP message that is not a tool
 * call, a request to /mcp without a working credential.
 */
export async function chargeRequest(caller: Caller, units = 1): Promise<Charge> {
  return charge(await apiBudget(caller, units));
}

/** A live stream's connection: one unit of the caller's API budget (refused with Retry-After only). */
export async function chargeLiveStream(caller: Caller): Promise<Charge> {
  return charge(await apiBudget(caller, 1), false);
}

/** A request to an OAuth endpoint of the MCP authorization server: one unit of the client's anonymous API budget, as an anonymous REST call. */
export async function chargeOAuth(ip: string): Promise<Charge> {
  return charge(await apiBudget({ identity: ANONYMOUS, ip }, 1), false);
}

/**
 * An MCP client's registration (POST /oauth/register), after its unit of the anonymous budget: one of
 * the client IP's registrations per hour (MCP_REGISTRATION_LIMIT, docs/security.md#limits-what-each-protects-and-how-it-is-keyed),
 * a budget of its own, so that a script filling the client table is stopped long before the anonymous
 * budget would, and the other OAuth endpoints (authorization, token, the registration read back) are
 * not held up by it. Refused with Retry-After only, as the other OAuth endpoints.
 */
export async function chargeRegistration(ip: string): Promise<Charge> {
  return charge(await rateLimiter().limitRegistration(ip), false);
}

/** The API budget as it stands, nothing counted (a preflight, a failure before anything was charged). */
export function peekBudget(caller: Caller): Promise<RateLimitResult> {
  return rateLimiter().peekRequest(budgetOf(caller));
}

/**
 * A page render, or a route handler the node-level guard charges (server/http/page-routes.ts): one unit
 * of the client's page budget (PAGE_RATE_LIMIT). Over it, a browser reads a plain page and a program
 * (`html: false`) the JSON refusal, both with Retry-After.
 */
export async function chargePage(ip: string, { html, method }: { html: boolean; method?: string }): Promise<Answer | null> {
  const limit = await rateLimiter().limitPage(ip);
  if (limit.success) return null;
  if (html) return pageRateLimited(limit, method);
  return rateLimited(limit, { budgetHeaders: false });
}

/**
 * A password sign-in on the web (NextAuth's credentials provider): the same account attempts as
 * POST /auth/login. False when they are spent.
 */
export async function chargeSignIn(ip: string): Promise<boolean> {
  return (await rateLimiter().limitAuthAttempt(ip)).success;
}
