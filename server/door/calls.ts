// What the door reads of a procedure (its meta), and the checks every call of every way in passes
// (docs/architecture.md#the-door). The procedure builder (server/api/trpc.ts) runs checkCall once per
// call; the ways in read callCost and isAttempt to charge the caller before the call.
import { ANONYMOUS, grantedScopes, type Identity } from "../auth/identity.ts";
import { roleAllows, type Role } from "../domain/roles.ts";
import { requiredScope, scopeAllows, type RequiredScope } from "../domain/scopes.ts";
import { firstUnstorableField } from "../domain/text-guard.ts";
import { badRequest, forbidden, unauthenticated, unauthorized, type AppError } from "../errors.ts";

export type CallType = "query" | "mutation" | "subscription";

/** The part of a procedure's meta the door reads (a type, not an interface: tRPC's meta needs an index signature). */
export type DoorMeta = {
  /**
   * What an API key needs to call it (docs/api.md#api-keys). Default: `read` for a query, and for a mutation
   * `account` (no key may call it) until it names its scope. Access tokens and sessions pass any scope.
   */
  scope?: RequiredScope;
  /** The role it needs (docs/features/moderation.md): anyone without it gets 403 `Insufficient permissions`. */
  role?: Role;
  /**
   * Units of the caller's API budget one call takes (docs/security.md#what-a-call-costs), one unless
   * declared: a number, or a function of the input as sent (not yet checked: the budget is charged first).
   */
  cost?: number | ((input: unknown) => number);
  /**
   * `account`: the call guesses credentials or makes an account (sign-in, registration, refresh, the
   * mailed links' requests and confirmations), so it also spends the client's account attempts
   * (docs/security.md#limits-what-each-protects-and-how-it-is-keyed).
   */
  attempt?: "account";
  /**
   * `ignored`: the call establishes or ends credentials and is served as anonymous whatever credential
   * came along (docs/security.md#every-way-in): a client that sends its expired access token with every
   * call can still log in and refresh, and a stale token does not spoil a mailed link.
   */
  credentials?: "ignored";
};

/** One call as it reaches the door: its procedure's meta (none: no such procedure) and its input as sent. */
export interface Call {
  meta: DoorMeta | undefined;
  /** The input as sent (unchecked), when the way in has it at hand. */
  input?: unknown;
  /** Reads the input as sent, when reading it costs something (a tRPC body): read only for a cost that depends on it. */
  readInput?: () => Promise<unknown>;
}

/** The units one call of a procedure with this meta takes, from its input as sent: a whole number, at least one. */
export function callCost(meta: DoorMeta | undefined, input: unknown): number {
  const cost = typeof meta?.cost === "function" ? meta.cost(input) : (meta?.cost ?? 1);
  return Number.isFinite(cost) ? Math.max(1, Math.floor(cost)) : 1;
}

/** The units of a call, its input read only when its cost depends on it (a malformed input costs one: the procedure refuses it later). */
export async function unitsOf(call: Call): Promise<number> {
  if (typeof call.meta?.cost !== "function") return callCost(call.meta, undefined);
  const input = call.readInput ? await call.readInput().catch(() => undefined) : call.input;
  return callCost(call.meta, input);
}

/** Whether the call spends the client's account attempts too. */
export const isAttempt = (meta: DoorMeta | undefined): boolean => meta?.attempt === "account";

/** Whether the credential that came along is left unread (the credential endpoints). */
export const ignoresCredentials = (meta: DoorMeta | undefined): boolean => meta?.credentials === "ignored";

/** Who a call runs as: the caller, or nobody on the endpoints that ignore credentials. */
export function callerOf(identity: Identity, meta: DoorMeta | undefined): Identity {
  return ignoresCredentials(meta) ? ANONYMOUS : identity;
}

/** The credential and its scopes (API keys, MCP grants): a bad credential is 401, a missing scope 403. */
function credentialRefusal(identity: Identity, meta: DoorMeta | undefined, type: CallType): AppError | null {
  if (identity.kind === "invalid") return unauthorized();
  if (identity.kind === "agent" && !scopeAllows(grantedScopes(identity), requiredScope(meta?.scope, type))) return forbidden();
  return null;
}

/** The role (read with the identity on every request: a role change holds at once). */
function roleRefusal(identity: Identity, meta: DoorMeta | undefined): AppError | null {
  if (!meta?.role || meta.role === "member") return null;
  if (identity.kind !== "agent") return unauthenticated();
  return roleAllows(identity.agent.role, meta.role) ? null : forbidden();
}

/**
 * Whether `identity` may call a procedure with this meta and type: the refusal (401/403) or null. The one
 * check of credentials, scopes and roles, for every way in (through checkCall), and for answers the REST
 * adapter gives without the procedure (the cached statistics: docs/api.md#discovery).
 */
export function refusal(identity: Identity, meta: DoorMeta | undefined, type: CallType): AppError | null {
  return credentialRefusal(identity, meta, type) ?? roleRefusal(identity, meta);
}

/**
 * Everything a call must pass before its procedure runs, once per call on every way in, in this order:
 * the credential and its scopes, the text guard, the role. Text PostgreSQL cannot store as sent (NUL,
 * unpaired surrogates) is a 400 naming the field, never a database error: every string of every input,
 * path ids included (an id with a NUL is not an id that could be found).
 */
export function checkCall(identity: Identity, meta: DoorMeta | undefined, type: CallType, input: unknown): AppError | null {
  const refused = credentialRefusal(identity, meta, type);
  if (refused) return refused;
  const field = firstUnstorableField(input);
  if (field) return badRequest(`${field}: must not contain NUL characters or unpaired surrogates`);
  return roleRefusal(identity, meta);
}
