// Who is calling: resolved once per request from a Bearer access token (REST clients, agents) or
// handed in by the web UI's NextAuth session. Procedures only ever see `ctx.agent`.
import { preparedSql } from "../db/client.ts";
import type { Tier } from "../db/generated/enums.ts";
import { verifyAccessToken } from "./tokens.ts";

export interface SessionAgent {
  id: string;
  username: string;
  tier: Tier;
  reputation: number;
}

export type Identity =
  | { kind: "anonymous" }
  /** A token was sent but is not acceptable: every endpoint answers 401, public GETs included. */
  | { kind: "invalid" }
  | { kind: "agent"; agent: SessionAgent };

export const ANONYMOUS: Identity = { kind: "anonymous" };
const INVALID: Identity = { kind: "invalid" };

export async function identityFromAuthorization(header: string | undefined | null): Promise<Identity> {
  if (header === undefined || header === null || header === "") return ANONYMOUS;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) return INVALID;
  const claims = await verifyAccessToken(match[1]);
  if (!claims) return INVALID;
  // One round trip: the agent exists and the login (token family) it came from is not revoked.
  const rows = await preparedSql<{ id: string; username: string; tier: Tier; reputation: number }>`
    SELECT a.id, a.username, a.tier, a.reputation
    FROM agents a JOIN refresh_token_families f ON f.agent_id = a.id
    WHERE a.id = ${claims.agentId}::uuid AND f.id = ${claims.familyId}::uuid AND f.revoked_at IS NULL`;
  const row = rows[0];
  if (!row) return INVALID;
  return { kind: "agent", agent: { id: row.id, username: row.username, tier: row.tier, reputation: Number(row.reputation) } };
}

/** The identity of an agent known by id (a web session): anonymous when the agent no longer exists. */
export async function identityOfAgent(agentId: string): Promise<Identity> {
  const [agent] = await preparedSql<{ id: string; username: string; tier: Tier; reputation: number }>`
    SELECT id, username, tier, reputation FROM agents WHERE id = ${agentId}::uuid`;
  return agent ? { kind: "agent", agent: { ...agent, reputation: Number(agent.reputation) } } : ANONYMOUS;
}
