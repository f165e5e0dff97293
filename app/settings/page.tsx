// The account's settings (docs/features/accounts.md): profile, password, email, signing out
// everywhere, API keys, MCP clients, webhooks, the export of one's data, and deleting the account.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { redirect } from "next/navigation";
import { currentViewer, serverCaller } from "~/server/api/server-caller.ts";
import { BIO_MAX } from "~/server/contract/accounts.ts";
import { DigestForm } from "./digest-form.tsx";
import {
  DeleteAccountForm,
  EmailSection,
  ExportButton,
  PasswordForm,
  ProfileForm,
  SignOutEverywhereButton,
} from "./account-forms.tsx";
import { ConnectedApps } from "./connected-apps.tsx";
import styles from "./settings.module.css";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const viewer = await currentViewer();
  if (!viewer) redirect(`/signin?redirect_to=${encodeURIComponent("/settings")}`);
  const { connected_apps } = await (await serverCaller()).connectedApps.list({});
  return (
    <>
      <div className={ui["page-header"]}>
        <div>
          <h1>Settings</h1>
          <p>
            Signed in as <strong>{viewer.username}</strong>. Your username cannot be changed.
          </p>
        </div>
      </div>

      <section className={`${ui.card} ${styles.section}`} aria-labelledby="settings-profile">
        <h2 id="settings-profile">Profile</h2>
        <ProfileForm displayName={viewer.display_name} bio={viewer.bio ?? ""} bioMax={BIO_MAX} />
      </section>

      <section className={`${ui.card} ${styles.section}`} aria-labelledby="settings-password">
        <h2 id="settings-password">Password</h2>
        {viewer.has_password ? (
          <PasswordForm />
        ) : (
          <p>
            You sign in through another account and have no password here.{" "}
            {viewer.email ? (
              <>
                To set one, use <Link href="/forgot-password">Forgot password?</Link> with {viewer.email}.
              </>
            ) : null}
          </p>
        )}
      </section>

      <section className={`${ui.card} ${styles.section}`} aria-labelledby="settings-email">
        <h2 id="settings-email">Email</h2>
        <EmailSection email={viewer.email} verified={viewer.email_verified} />
      </section>

      <section className={`${ui.card} ${styles.section}`} aria-labelledby="settings-digest-title" id="settings-digest">
        <h2 id="settings-digest-title">Mail digest</h2>
        <DigestForm />
      </section>

      <section className={`${ui.card} ${styles.section}`} aria-labelledby="settings-sessions">
        <h2 id="settings-sessions">Where you are signed in</h2>
        <p>
          Signed in on another computer, or lost a phone? End every session, every API login (access and refresh tokens) and every
          connected MCP client at once; API keys too, if you choose.
        </p>
        <SignOutEverywhereButton />
      </section>

      <section className={`${ui.card} ${styles.section}`} aria-labelledby="settings-programs">
        <h2 id="settings-programs">API keys and webhooks</h2>
        <p>
          <Link href="/settings/api-keys">API keys</Link> let your programs act for you with only the rights you give them.{" "}
          <Link href="/settings/webhooks">Webhooks</Link> call your programs when something happens on the claims you follow.
        </p>
      </section>

      <div id="mcp-clients">
        <ConnectedApps initialApps={connected_apps} />
      </div>

      <section className={`${ui.card} ${styles.section}`} aria-labelledby="settings-export">
        <h2 id="settings-export">Your data</h2>
        <p>
          Download everything your account holds as one JSON file: your profile, claims, evidence, comments, votes, bookmarks, follows,
          notifications, API keys and webhooks (without their secrets) and your reputation history.
        </p>
        <ExportButton username={viewer.username} />
      </section>

      <section className={`${ui.card} ${styles.section} ${styles.danger}`} aria-labelledby="settings-delete">
        <h2 id="settings-delete">Delete your account</h2>
        <p>
          This removes you: your email, password, name, bio, sign-ins, keys, webhooks, bookmarks, follows and notifications, and your
          votes (every gradient they moved is corrected). Claims, evidence and comments you wrote stay, shown as written by{" "}
          <em>Deleted account</em>. Your username is never given to anyone else. This cannot be undone.
        </p>
        <DeleteAccountForm hasPassword={viewer.has_password} username={viewer.username} />
      </section>
    </>
  );
}
