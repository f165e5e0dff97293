// Grant management (docs/features/mcp.md#oauth, "Granted clients"): the MCP clients a person has
// allowed ("connected apps"), as settings lists them, and revoking one with everything issued under it.
import type { AdapterPayload } from "oidc-provider";
import type { ConnectedApp, ConnectedAppList } from "../contract/connected-apps.ts";
import { Prisma } from "../db/generated/client.ts";
import { db, readSql } from "../db/client.ts";
import { withoutInvisibleCharacters } from "../domain/display-name.ts";
import { API_KEY_SCOPES } from "../domain/scopes.ts";
import { notFound } from "../errors.ts";
import { MADE_AT, madeBeforeCutOff } from "./artifacts.ts";

/** The person's live grants, newest first: which client, with which scopes, since when. */
export async function listMcpGrants(agentId: string): Promise<ConnectedApp[]> {
  const rows = await readSql<{ id: string; payload: AdapterPayload; created_at: Date; client: AdapterPayload | null }>(Prisma.sql`
    SELECT g.id, g.payload, g.created_at, c.payload AS client
    FROM mcp_oauth_artifacts g LEFT JOIN mcp_oauth_artifacts c ON c.kind = 'Client' AND c.id = g.payload->>'clientId'
    WHERE g.agent_id = ${agentId}::uuid AND g.kind = 'Grant' AND (g.expires_at IS NULL OR g.expires_at > now()) AND NOT ${madeBeforeCutOff("g", MADE_AT.Grant)}
    ORDER BY g.created_at DESC`, { prepared: true });
  return rows.map((row) => {
    const resources = (row.payload.resources ?? {}) as Record<string, string>;
    const granted = Object.values(resources).join(" ").split(" ");
    return {
      grant_id: row.id,
      client_id: String(row.payload.clientId ?? ""),
      // A name registered before registration refused hidden characters shows without them.
      client_name: withoutInvisibleCharacters(String(row.client?.client_name ?? row.payload.clientId ?? "")),
      scopes: API_KEY_SCOPES.filter((s) => granted.includes(s)),
      created_at: new Date(row.created_at).toISOString(),
    };
  });
}

/** The id of the person's newest live grant to `clientId`, or null. */
export async function liveGrantId({ agentId, clientId }: { agentId: string; clientId: string }): Promise<string | null> {
  const [row] = await readSql<{ id: string }>(Prisma.sql`
    SELECT g.id FROM mcp_oauth_artifacts g
    WHERE g.agent_id = ${agentId}::uuid AND g.kind = 'Grant' AND g.payload->>'clientId' = ${clientId}
      AND (g.expires_at IS NULL OR g.expires_at > now()) AND NOT ${madeBeforeCutOff("g", MADE_AT.Grant)}
    ORDER BY g.created_at DESC LIMIT 1`);
  return row?.id ?? null;
}

export async function listConnectedApps(agentId: string): Promise<ConnectedAppList> {
  return { connected_apps: await listMcpGrants(agentId) };
}

/**
 * Deletes the person's grant and every code and token issued under it: the next /mcp call with them
 * is 401. A grant that is not theirs, or no longer there, is a 404.
 */
export async function revokeMcpGrant({ agentId, grantId }: { agentId: string; grantId: string }): Promise<void> {
  const count = await db().$executeRaw`
    DELETE FROM mcp_oauth_artifacts
    WHERE (grant_id = ${grantId} OR (kind = 'Grant' AND id = ${grantId})) AND agent_id = ${agentId}::uuid`;
  if (count === 0) throw notFound("Connected app not found");
}
