// Consent (docs/features/mcp.md#oauth, step 5): the web UI's consent page reads the provider's
// interaction — which client asks, where the answer goes, which scopes — and records the person's
// answer, after which the browser goes back into the provider.
import { API_KEY_SCOPES, type ApiKeyScope } from "../domain/scopes.ts";
import { mayConsent } from "./accounts.ts";
import { mcpResource, oauthProvider } from "./provider.ts";
import { isLoopback } from "./registration.ts";

export interface ConsentRequest {
  uid: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  /** Where the browser goes with the answer: the redirect URI's host (IDN in its ASCII form), shown prominently. */
  returnHost: string;
  /** The redirect URI is on this computer (a desktop client's loopback listener). */
  returnsToLoopback: boolean;
  scopes: ApiKeyScope[];
  /** OpenID scopes asked for (openid: the account's id as `sub`), granted with the answer. */
  openIdScopes: string[];
  returnTo: string;
}

/** The consent request `uid`, or null when it is unknown, expired, or its client is gone. */
export async function consentRequest(uid: string): Promise<ConsentRequest | null> {
  const provider = oauthProvider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const clientId = String(interaction.params.client_id ?? "");
  // A stored client that no longer passes registration's rules (registered before them) is refused.
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) return null;
  const asked = String(interaction.params.scope ?? "").split(" ");
  const scopes = API_KEY_SCOPES.filter((s) => asked.includes(s));
  const redirectUri = String(interaction.params.redirect_uri ?? "");
  const parsed = URL.parse(redirectUri);
  return {
    uid,
    clientId,
    clientName: client.clientName ?? clientId,
    redirectUri,
    returnHost: parsed?.host ?? redirectUri,
    returnsToLoopback: parsed !== null && isLoopback(parsed.hostname),
    // A client that asks for no scope of ours asks for reading.
    scopes: scopes.length > 0 ? scopes : ["read"],
    openIdScopes: asked.filter((s) => s === "openid"),
    returnTo: interaction.returnTo,
  };
}

/** Records the answer; returns where the browser goes next (back into the provider), or null. */
export async function finishConsent(uid: string, agentId: string, approve: boolean): Promise<string | null> {
  // The sign-in the answer carries into the OAuth server's session: now, when the person answers, not
  // when the browser comes back. An answer given before the account's cut-off and written back after
  // it (the cut-off deletes answered consents) is then found no more (artifacts.ts, stillStanding).
  const answeredAt = Math.floor(Date.now() / 1000);
  const provider = oauthProvider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const request = await consentRequest(uid);
  if (!request) return null;
  if (!approve || !(await mayConsent(agentId))) {
    interaction.result = { error: "access_denied", error_description: "The person refused the request" };
  } else {
    const grant = interaction.grantId
      ? ((await provider.Grant.find(interaction.grantId)) ?? new provider.Grant({ accountId: agentId, clientId: request.clientId }))
      : new provider.Grant({ accountId: agentId, clientId: request.clientId });
    grant.addResourceScope(mcpResource(), request.scopes.join(" "));
    // Without it the provider finds openid still missing and asks for consent again, forever.
    if (request.openIdScopes.length > 0) grant.addOIDCScope(request.openIdScopes.join(" "));
    const grantId = await grant.save();
    interaction.result = { login: { accountId: agentId, ts: answeredAt }, consent: { grantId } };
  }
  await interaction.save(Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000)));
  return interaction.returnTo;
}
