"use client";
// A client component: every page's React payload names its not-found page instead of carrying its tree
// (docs/architecture.md#pages-from-data).
import Link from "~/app/_components/link.tsx";
import ui from "../_components/ui.module.css";
import { HiddenClaimRedirect } from "./hidden-claim-redirect.tsx";

export default function ClaimNotFound() {
  return (
    <div className={`${ui.card} ${ui["error-state"]}`}>
      <h1>Claim not found</h1>
      <p className={ui.muted}>This claim does not exist. The link may be mistyped.</p>
      <div className={ui["form-actions"]} style={{ justifyContent: "center" }}>
        <Link href="/" className={ui.button}>
          Explore claims
        </Link>
        <Link href="/claims/new" className={`${ui.button} ${ui["button--secondary"]}`}>
          Submit a claim
        </Link>
      </div>
      <HiddenClaimRedirect />
    </div>
  );
}
