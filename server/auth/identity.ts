// Who is calling: resolved once per request from a Bearer credential — an access token or an API key
// (REST clients, agents) — or handed in by the web UI's NextAuth session. Procedures only ever see
// `ctx.agent`; the scope middleware (server/api/trpc.ts) reads `apiKey`.
import { readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import type { Tier } from "../domain/reputation.ts";
import type { Role } from "../domain/roles.ts";
import type { ApiKeyScope } from "../domain/scopes.ts";
import { notSuspendedSql } from "../domain/suspension.ts";
import { apiKeyMatches, isWellFormedApiKey, looksLikeApiKey, lookupPrefix } from "./api-keys.ts";
import { verifyMcpAccessToken } from "../oauth/access-tokens.ts";
import { hashToken, verifyAccessToken } from "./tokens.ts";

export interface SessionAgent {
  id: string;
  username: string;
  tier: Tier;
  reputation: number;
  /** Read from the database on every request: a role change holds at once, on tokens already issued. */
  role: Role;
}

/**
 * A suspended agent (docs/features/moderation.md) is refused here, whatever the credential: the one check every
 * access token, API key and web session passes through. (Suspending also revokes the token families
 * and keys, so they stay dead after the suspension ends.)
 */
const NOT_SUSPENDED = notSuspendedSql("a");

export type Identity =
  | { kind: "anonymous" }
  /** A token was sent but is not acceptable: every endpoint answers 401, public GETs included. */
  | { kind: "invalid" }
  /**
   * `apiKey` is set when the credential is an API key, `mcpGrant` when it is an MCP OAuth token: the
   * call is limited to their scopes (grantedScopes). `familyId` (an access token's login) and
   * `sessionId` (a web session) name the credential itself, which a password change keeps while
   * ending every other (docs/features/accounts.md).
   */
  | {
      kind: "agent";
      agent: SessionAgent;
      apiKey?: { id: string; scopes: readonly ApiKeyScope[] };
      mcpGrant?: { grantId: string; clientId: string; scopes: readonly ApiKeyScope[] };
      familyId?: string;
      sessionId?: string;
    };

/** The scopes the credential carries; null for an access token or a web session (unrestricted). */
export function grantedScopes(identity: Identity): readonly ApiKeyScope[] | null {
  if (identity.kind !== "agent") return null;
  return identity.apiKey?.scopes ?? identity.mcpGrant?.scopes ?? null;
}

/**
 * The identity at /mcp: what /api/v1 accepts (access tokens, API keys) and, only there, the tokens
 * the authorization server issued to MCP clients for that resource.
 */
export async function identityForMcp(header: string | undefined | null, origin: string): Promise<Identity> {
  const identity = await identityFromAuthorization(header);
  if (identity.kind !== "invalid") return identity;
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
  if (!token || looksLikeApiKey(token)) return INVALID;
  const grant = await verifyMcpAccessToken(origin, token);
  if (!grant) return INVALID;
  const [row] = await readSql<SessionAgent>(Prisma.sql`
    SELECT a.id, a.username, a.tier, a.reputation, a.role::text AS role
    FROM agents a WHERE a.id = ${grant.agentId}::uuid AND ${Prisma.raw(NOT_SUSPENDED)}`, { prepared: true });
  if (!row) return INVALID;
  return { ...agentIdentity(row), mcpGrant: { grantId: grant.grantId, clientId: grant.clientId, scopes: grant.scopes } } as Identity;
}

export const ANONYMOUS: Identity = { kind: "anonymous" };
const INVALID: Identity = { kind: "invalid" };

/** An agents row (id, username, tier, reputation) as the identity procedures see. */
const agentIdentity = (row: SessionAgent, credential: { familyId?: string } = {}): Identity => ({
  kind: "agent",
  agent: { ...row, reputation: Number(row.reputation) },
  ...credential,
});

export async function identityFromAuthorization(header: string | undefined | null): Promise<Identity> {
  if (header === undefined || header === null || header === "") return ANONYMOUS;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) return INVALID;
  if (looksLikeApiKey(match[1])) return identityFromApiKey(match[1]);
  const claims = await verifyAccessToken(match[1]);
  if (!claims) return INVALID;
  // One round trip: the agent exists and the login (token family) it came from is not revoked.
  const [row] = await readSql<SessionAgent>(Prisma.sql`
    SELECT a.id, a.username, a.tier, a.reputation, a.role::text AS role
    FROM agents a JOIN refresh_token_families f ON f.agent_id = a.id
    WHERE a.id = ${claims.agentId}::uuid AND f.id = ${claims.familyId}::uuid AND f.revoked_at IS NULL
      AND (a.sessions_valid_after IS NULL OR f.created_at >= a.sessions_valid_after)
      AND ${Prisma.raw(NOT_SUSPENDED)}`, { prepared: true });
  return row ? agentIdentity(row, { familyId: claims.familyId }) : INVALID;
}

/**
 * The identity of an agent known by id (a web session): anonymous when the agent no longer exists;
 * refused while suspended, and for a session signed in (`authTime`, Unix seconds) before the
 * agent's sessions were revoked (a suspension revokes them: the JWT itself cannot be recalled). Both
 * count as signed out. A session that carries a session id (`sessionId`, every sign-in since web
 * sessions are kept on the server) also needs its sessions row: signing out deletes it, so a copied
 * cookie stops working (docs/features/accounts.md).
 */
export async function identityOfAgent(agentId: string, authTime?: number, sessionId?: string): Promise<Identity> {
  const sessionHash = sessionId === undefined ? null : hashToken(sessionId);
  const [row] = await readSql<SessionAgent & { active: boolean; sessions_valid_after: Date | null; session_live: boolean }>(Prisma.sql`
    SELECT a.id, a.username, a.tier, a.reputation, a.role::text AS role, a.sessions_valid_after,
           (${Prisma.raw(NOT_SUSPENDED)}) AS active,
           (${sessionHash}::text IS NULL OR EXISTS (
              SELECT 1 FROM sessions s WHERE s.session_token = ${sessionHash}::text AND s.agent_id = a.id AND s.expires > now()
           )) AS session_live
    FROM agents a WHERE a.id = ${agentId}::uuid`, { prepared: true });
  if (!row) return ANONYMOUS;
  const { active, sessions_valid_after: validAfter, session_live: sessionLive, ...agent } = row;
  // Treated as no session (every write and private read answers 401) rather than as a bad token, so
  // the pages still render, signed out.
  if (!active || !sessionLive) return ANONYMOUS;
  if (validAfter && authTime !== undefined && authTime * 1000 < new Date(validAfter).getTime()) return ANONYMOUS;
  return { kind: "agent", agent: { ...agent, reputation: Number(agent.reputation) }, ...(sessionId !== undefined ? { sessionId } : {}) };
}

interface ApiKeyRow extends SessionAgent {
  key_id: string;
  secret_hash: string;
  scopes: ApiKeyScope[];
  expires_at: Date | null;
  last_used_at: Date | null;
}

/** last_used_at is kept to the minute: a key's row is written at most once a minute, not per request. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** When this process last wrote each key's last_used_at (spares concurrent requests the same write). */
const lastUsedWrites = new Map<string, number>();

/**
 * An API key: found by its prefix (unique index), its hash compared in constant time, refused when
 * revoked or expired. Validity is read from the database on every request — no process-local cache —
 * so a revocation answered by one instance holds on every other instance from the next request on.
 */
async function identityFromApiKey(key: string): Promise<Identity> {
  if (!isWellFormedApiKey(key)) return INVALID;
  const [row] = await readSql<ApiKeyRow>(Prisma.sql`
    SELECT k.id AS key_id, k.secret_hash, k.scopes, k.expires_at, k.last_used_at,
           a.id, a.username, a.tier, a.reputation, a.role::text AS role
    FROM api_keys k JOIN agents a ON a.id = k.agent_id
    WHERE k.prefix = ${lookupPrefix(key)} AND k.revoked_at IS NULL AND ${Prisma.raw(NOT_SUSPENDED)}`, { prepared: true });
  if (!row || !apiKeyMatches(key, row.secret_hash)) return INVALID;
  const now = Date.now();
  // Expiry is compared with this process's clock (the one that computed expires_at at creation).
  if (row.expires_at !== null && new Date(row.expires_at).getTime() <= now) return INVALID;
  await touchLastUsed(row.key_id, row.last_used_at, now);
  const { key_id, scopes, secret_hash: _hash, expires_at: _exp, last_used_at: _used, ...agent } = row;
  return { kind: "agent", agent: { ...agent, reputation: Number(agent.reputation) }, apiKey: { id: key_id, scopes } };
}

async function touchLastUsed(keyId: string, lastUsedAt: Date | null, now: number): Promise<void> {
  const stored = lastUsedAt === null ? 0 : new Date(lastUsedAt).getTime();
  const written = Math.max(stored, lastUsedWrites.get(keyId) ?? 0);
  if (now - written < LAST_USED_RESOLUTION_MS) return;
  lastUsedWrites.set(keyId, now);
  if (lastUsedWrites.size > 10_000) lastUsedWrites.clear();
  // The condition keeps concurrent instances from rewriting it within the same minute.
  await readSql`
    UPDATE api_keys SET last_used_at = ${new Date(now)}
    WHERE id = ${keyId}::uuid AND (last_used_at IS NULL OR last_used_at < ${new Date(now - LAST_USED_RESOLUTION_MS)})`;
}
