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

/** An agents row (id, username, tier, reputation) as the identity procedures see. */
const agentIdentity = (row: SessionAgent): Identity => ({ kind: "agent", agent: { ...row, reputation: Number(row.reputation) } });

export async function identityFromAuthorization(header: string | undefined | null): Promise<Identity> {
  if (header === undefined || header === null || header === "") return ANONYMOUS;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) return INVALID;
  const claims = await verifyAccessToken(match[1]);
  if (!claims) return INVALID;
  // One round trip: the agent exists and the login (token family) it came from is not revoked.
  const [row] = await preparedSql<SessionAgent>`
    SELECT a.id, a.username, a.tier, a.reputation
    FROM agents a JOIN refresh_token_families f ON f.agent_id = a.id
    WHERE a.id = ${claims.agentId}::uuid AND f.id = ${claims.familyId}::uuid AND f.revoked_at IS NULL`;
  return row ? agentIdentity(row) : INVALID;
}

/** The identity of an agent known by id (a web session): anonymous when the agent no longer exists. */
export async function identityOfAgent(agentId: string): Promise<Identity> {
  const [row] = await preparedSql<SessionAgent>`SELECT id, username, tier, reputation FROM agents WHERE id = ${agentId}::uuid`;
  return row ? agentIdentity(row) : ANONYMOUS;
}
