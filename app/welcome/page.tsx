// The first-run welcome, where sign-up lands: the three things to do first.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { redirect } from "next/navigation";
import { currentViewer } from "~/server/api/server-caller.ts";
import { EmailSection } from "../settings/account-forms.tsx";
import styles from "../settings/settings.module.css";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Welcome" };

export default async function WelcomePage() {
  const viewer = await currentViewer();
  if (!viewer) redirect(`/signin?redirect_to=${encodeURIComponent("/welcome")}`);
  return (
    <div style={{ maxWidth: 720, margin: "0 auto" }}>
      <div className={ui["page-header"]}>
        <div>
          <h1>Welcome, {viewer.display_name}</h1>
          <p>Claims are statements people weigh together: each vote says how true a claim is, from 0 to 1, and evidence argues for or against it. Three things to do first:</p>
        </div>
      </div>
      <ol className={styles.steps} data-testid="welcome-steps">
        <li>
          <div className={`${ui.card} ${styles.section}`} style={{ flex: 1 }}>
            <h2>Verify your email</h2>
            <EmailSection email={viewer.email} verified={viewer.email_verified} />
          </div>
        </li>
        <li>
          <div className={`${ui.card} ${styles.section}`} style={{ flex: 1 }}>
            <h2>Vote on a claim</h2>
            <p>Open a claim that interests you, read its evidence, and say how true you think it is.</p>
            <Link href="/" className={ui.button}>
              Explore claims
            </Link>
          </div>
        </li>
        <li>
          <div className={`${ui.card} ${styles.section}`} style={{ flex: 1 }}>
            <h2>Post your first claim</h2>
            <p>State something you would like others to weigh. You will follow it, and hear when people vote or argue about it.</p>
            <Link href="/claims/new" className={ui.button}>
              Write a claim
            </Link>
          </div>
        </li>
      </ol>
      <p className={ui.muted}>
        Your profile, password and data are in <Link href="/settings">Settings</Link>.
      </p>
    </div>
  );
}
