// The MCP clients a person has granted access through OAuth (docs/features/mcp.md#oauth), beside the
// API keys: each revocable at once (a plain form, so it works before any script loads).
import { listMcpGrants } from "~/server/auth/mcp-oauth.ts";
import ui from "../../_components/ui.module.css";

export async function McpClients({ agentId }: { agentId: string }) {
  const grants = await listMcpGrants(agentId);
  return (
    <section className={ui.card} aria-labelledby="mcp-clients-title" style={{ marginTop: "1.5rem" }}>
      <h2 id="mcp-clients-title" className={ui.card__title}>
        Connected MCP clients
      </h2>
      <p>
        Agents you allowed to use your account through the MCP server (<code>/mcp</code>). Revoking one ends its access at
        once.
      </p>
      {grants.length === 0 ? (
        <p>No MCP client has been granted access.</p>
      ) : (
        <table aria-label="Connected MCP clients">
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col">Scopes</th>
              <th scope="col">Granted</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {grants.map((grant) => (
              <tr key={grant.grant_id}>
                <td>{grant.client_name}</td>
                <td>{grant.scopes.join(", ")}</td>
                <td>
                  <time dateTime={grant.created_at.toISOString()}>{grant.created_at.toISOString().slice(0, 10)}</time>
                </td>
                <td>
                  <form method="post" action={`/settings/api-keys/mcp-clients/${encodeURIComponent(grant.grant_id)}/revoke`}>
                    <button className={`${ui.button} ${ui["button--danger"]}`} type="submit" aria-label={`Revoke ${grant.client_name}`}>
                      Revoke
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
