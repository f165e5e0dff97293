// The signed-in agent's API keys (docs/api.md#api-keys): create one (shown once), see them by prefix, revoke.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentViewer, serverCaller } from "~/server/api/server-caller.ts";
import { MAX_LIVE_API_KEYS } from "~/server/contract/api-keys.ts";
import { API_KEY_SCOPES, SCOPE_DESCRIPTIONS } from "~/server/domain/scopes.ts";
import { ApiKeysManager } from "./api-keys-manager.tsx";
import { ConnectedApps } from "../connected-apps.tsx";
import ui from "../../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const viewer = await currentViewer();
  if (!viewer) redirect(`/signin?redirect_to=${encodeURIComponent("/settings/api-keys")}`);
  const caller = await serverCaller();
  const [{ api_keys }, { connected_apps }] = await Promise.all([caller.apiKeys.list({}), caller.connectedApps.list({})]);
  return (
    <div style={{ maxWidth: 900, margin: "0 auto" }}>
      <div className={ui["page-header"]}>
        <div>
          <h1>API keys</h1>
          <p>
            Long-lived keys for software agents: send one as <code>Authorization: Bearer clm_…</code> to the{" "}
            <a href="/docs/api">REST API</a>. Each key can do only what its scopes allow, and you can revoke it at any time.
          </p>
        </div>
      </div>
      <ApiKeysManager
        initialKeys={api_keys}
        scopes={API_KEY_SCOPES.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] }))}
        maxKeys={MAX_LIVE_API_KEYS}
      />
      <ConnectedApps initialApps={connected_apps} />
    </div>
  );
}
