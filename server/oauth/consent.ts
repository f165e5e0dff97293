// Consent (docs/features/mcp.md#oauth, step 5): the web UI's consent page reads the provider's
// interaction — which client asks, where the answer goes, which scopes — and records the person's
// answer, after which the browser goes back into the provider.
import type { Grant } from "oidc-provider";
import { isLoopbackHost, redirectKind } from "../domain/redirect-uris.ts";
import type { ApiKeyScope } from "../domain/scopes.ts";
import { mayConsent } from "./accounts.ts";
import { liveGrantId } from "./grants.ts";
import { mcpResource, oauthProvider } from "./provider.ts";
import { mcpScopesIn, scopesAskedFor, withMcpScopes } from "./scopes.ts";

export interface ConsentRequest {
  uid: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  /** Where the browser goes with the answer: the redirect URI's host (IDN in its ASCII form), shown prominently. */
  returnHost: string;
  /** The redirect URI is on this computer (a desktop client's loopback listener). */
  returnsToLoopback: boolean;
  /** The redirect URI is an app's own scheme on this computer (cursor:, com.example.app:): that scheme, else null. */
  returnsToApp: string | null;
  scopes: ApiKeyScope[];
  /** OpenID scopes asked for (openid: the account's id as `sub`), granted with the answer. */
  openIdScopes: string[];
  returnTo: string;
}

/**
 * The grant this person already gave the client, to be extended rather than doubled: the one of the
 * provider's browser session, else their live grant for the client in the database (a reconnect from
 * another browser, or after the session ended).
 */
async function existingGrant({
  interactionGrantId,
  agentId,
  clientId,
}: {
  interactionGrantId: string | undefined;
  agentId: string;
  clientId: string;
}): Promise<Grant | undefined> {
  const provider = oauthProvider();
  for (const id of [interactionGrantId, await liveGrantId({ agentId, clientId })]) {
    if (!id) continue;
    const grant = await provider.Grant.find(id);
    if (grant && grant.accountId === agentId && grant.clientId === clientId) return grant;
  }
  return undefined;
}

/**
 * The consent request `uid` as `agentId` (the signed-in person) would answer it, or null when it is
 * unknown, expired, or its client is gone. A request that names none of the MCP scopes asks for those
 * of the person's grant to this client, else those the client registered, else the default set
 * (scopes.ts): what the page shows is what Allow grants.
 */
export async function consentRequest(uid: string, agentId?: string): Promise<ConsentRequest | null> {
  const provider = oauthProvider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const clientId = String(interaction.params.client_id ?? "");
  // A stored client that no longer passes registration's rules (registered before them) is refused.
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) return null;
  const asked = interaction.params.scope;
  const named = mcpScopesIn(asked);
  const granted = named.length === 0 && agentId ? await existingGrant({ interactionGrantId: interaction.grantId, agentId, clientId }) : undefined;
  const scopes = scopesAskedFor(asked, { granted: mcpScopesIn(granted?.getResourceScope(mcpResource()) ?? ""), registered: client.scope });
  const redirectUri = String(interaction.params.redirect_uri ?? "");
  const parsed = URL.parse(redirectUri);
  const kind = parsed ? redirectKind(parsed) : "web";
  return {
    uid,
    clientId,
    clientName: client.clientName ?? clientId,
    redirectUri,
    returnHost: parsed?.host || redirectUri,
    returnsToLoopback: parsed !== null && kind === "loopback" && isLoopbackHost(parsed.hostname),
    returnsToApp: parsed !== null && kind === "app" ? parsed.protocol.slice(0, -1) : null,
    scopes,
    openIdScopes: String(asked ?? "").split(" ").filter((s) => s === "openid"),
    returnTo: interaction.returnTo,
  };
}

/** Records the answer; returns where the browser goes next (back into the provider), or null. */
export async function finishConsent({ uid, agentId, approve }: { uid: string; agentId: string; approve: boolean }): Promise<string | null> {
  // The sign-in the answer carries into the OAuth server's session: now, when the person answers, not
  // when the browser comes back. An answer given before the account's cut-off and written back after
  // it (the cut-off deletes answered consents) is then found no more (artifacts.ts, stillStanding).
  const answeredAt = Math.floor(Date.now() / 1000);
  const provider = oauthProvider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const request = await consentRequest(uid, agentId);
  if (!request) return null;
  if (!approve || !(await mayConsent(agentId))) {
    interaction.result = { error: "access_denied", error_description: "The person refused the request" };
  } else {
    const grant =
      (await existingGrant({ interactionGrantId: interaction.grantId, agentId, clientId: request.clientId })) ??
      new provider.Grant({ accountId: agentId, clientId: request.clientId });
    grant.addResourceScope(mcpResource(), request.scopes.join(" "));
    // The scopes are the provider's OpenID scopes too (provider.ts); without them, and without openid
    // when asked, it finds them still missing and asks for consent again, forever.
    grant.addOIDCScope([...request.scopes, ...request.openIdScopes].join(" "));
    const grantId = await grant.save();
    // What the person allowed is what the code carries, also when the request named no scope.
    interaction.params.scope = withMcpScopes(interaction.params.scope, request.scopes);
    interaction.result = { login: { accountId: agentId, ts: answeredAt }, consent: { grantId } };
  }
  await interaction.save(Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000)));
  return interaction.returnTo;
}
