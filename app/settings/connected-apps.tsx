"use client";
// The MCP clients a person has allowed through OAuth (docs/features/mcp.md#oauth), listed and revoked
// through the web's tRPC endpoint (connectedApps.*, session cookie), as the API keys beside them are.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ConnectedApp } from "~/server/contract/connected-apps.ts";
import { toApiError } from "../_lib/api-error.ts";
import { longDate, shortDate } from "../_lib/format.ts";
import { useTRPC } from "../_lib/trpc.tsx";
import ui from "../_components/ui.module.css";

export function ConnectedApps({ initialApps }: { initialApps: ConnectedApp[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery({ ...trpc.connectedApps.list.queryOptions({}), initialData: { connected_apps: initialApps } });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.connectedApps.list.queryKey() });
  const apps = list.data.connected_apps;
  return (
    <section className={ui.card} aria-labelledby="connected-apps-title" style={{ marginTop: "1.5rem" }}>
      <h2 id="connected-apps-title" className={ui.card__title}>
        Connected MCP clients
      </h2>
      <p>
        AI assistants and other MCP clients you allowed to use your account through the MCP server (<code>/mcp</code>), each with
        what it may do. Revoking one ends its access at once.
      </p>
      {apps.length === 0 ? (
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
            {apps.map((app) => (
              <AppRow key={app.grant_id} app={app} onRevoked={refresh} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function AppRow({ app, onRevoked }: { app: ConnectedApp; onRevoked: () => void }) {
  const trpc = useTRPC();
  const [error, setError] = useState<string | null>(null);
  const revoke = useMutation(
    trpc.connectedApps.revoke.mutationOptions({ onMutate: () => setError(null), onSuccess: onRevoked, onError: (e) => setError(toApiError(e).detail) }),
  );
  return (
    <tr>
      <td>{app.client_name}</td>
      <td>{app.scopes.join(", ")}</td>
      <td>
        <time dateTime={app.created_at} title={longDate(app.created_at)} suppressHydrationWarning>
          {shortDate(app.created_at)}
        </time>
      </td>
      <td>
        <button
          type="button"
          className={`${ui.button} ${ui["button--danger"]}`}
          aria-label={`Revoke ${app.client_name}`}
          disabled={revoke.isPending}
          onClick={() => revoke.mutate({ grant_id: app.grant_id })}
        >
          {revoke.isPending ? "Revoking…" : "Revoke"}
        </button>
        {error && (
          <p className={ui["field-error"]} role="alert">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}
