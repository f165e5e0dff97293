// The consent page of the authorization server for MCP clients (docs/features/mcp.md#oauth): the
// person, signed in (sent to sign in first and back), sees which client asks, where it will return,
// and what each scope it asks for allows, and allows or denies. The name is the client's own word
// (refused at registration if it hides characters); the host it returns to, shown large, is not.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { currentViewer } from "~/server/api/server-caller.ts";
import { consentRequest } from "~/server/oauth/consent.ts";
import { INTERACTION_COOKIE } from "~/server/oauth/routes.ts";
import { SCOPE_IN_PLAIN_WORDS } from "~/server/domain/scopes.ts";
import ui from "../../_components/ui.module.css";
import styles from "./consent.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Allow access", robots: { index: false } };

function Expired() {
  return (
    <div style={{ maxWidth: 640, margin: "0 auto" }}>
      <h1>This request has expired</h1>
      <p>Start connecting again from your MCP client.</p>
    </div>
  );
}

export default async function ConsentPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const viewer = await currentViewer();
  if (!viewer) redirect(`/signin?redirect_to=${encodeURIComponent(`/consent/${uid}`)}`);
  // The request belongs to the browser that started it (the provider's cookie names it).
  if ((await cookies()).get(INTERACTION_COOKIE)?.value !== uid) return <Expired />;
  const request = await consentRequest(uid, viewer.id);
  if (!request) return <Expired />;
  return (
    <div style={{ maxWidth: 640, margin: "0 auto" }}>
      <div className={ui["page-header"]}>
        <div>
          <h1>Allow {request.clientName} to use your account?</h1>
          <p>
            A client that calls itself <strong>{request.clientName}</strong> wants to act as <strong>{viewer.username}</strong> through
            the MCP server.
          </p>
        </div>
      </div>
      <section className={styles.return} aria-label="Where your answer is sent">
        <p className={styles.return__label}>After you answer, your browser goes to</p>
        <code className={styles.return__host} data-return-host>
          {request.returnsToApp ? `${request.returnsToApp}:` : request.returnHost}
        </code>
        <p className={ui.note}>
          {request.returnsToLoopback
            ? "A program on this computer. Allow only if you just started connecting it."
            : request.returnsToApp
              ? `The app on this computer that opens ${request.returnsToApp}: links. Allow only if you just started connecting it.`
              : "Allow only if you expect this address: the client chose its name, not this address."}
        </p>
      </section>
      <div className={ui.card}>
        <h2 className={ui.card__title}>If you allow it, {request.clientName} can</h2>
        <ul aria-label="Requested scopes">
          {request.scopes.map((scope) => (
            <li key={scope} data-scope={scope}>
              {SCOPE_IN_PLAIN_WORDS[scope]} <span className={ui.muted}>({scope})</span>
            </li>
          ))}
          {request.openIdScopes.map((scope) => (
            <li key={scope} data-scope={scope}>
              Know which account is yours (its id) <span className={ui.muted}>({scope})</span>
            </li>
          ))}
        </ul>
        <p>It cannot change your password, email or settings, create API keys, or act for you anywhere but this site.</p>
        <p>You can disconnect it at any time under Settings.</p>
        <form method="post" action={`/consent/${uid}/decision`} style={{ display: "flex", gap: "0.75rem" }}>
          <button className={ui.button} type="submit" name="decision" value="allow">
            Allow
          </button>
          <button className={`${ui.button} ${ui["button--secondary"]}`} type="submit" name="decision" value="deny">
            Deny
          </button>
        </form>
      </div>
    </div>
  );
}
