"use client";
// The top of a claim page: breadcrumb, the statement, its tier, tags, author and evidence count, and the
// viewer's bookmark and follow. A client component given the claim the page already hands to the live
// part (claim-live.tsx), so the page's React payload carries that object once and no tree for this part
// (docs/architecture.md#pages-from-data).
import Link from "~/app/_components/link.tsx";
import { AuthorLink, RelTime, TagList } from "../../_components/bits.tsx";
import { HiddenBanner } from "../../_components/report-button.tsx";
import { ClaimActions } from "./claim-actions.tsx";
import { ClaimEdits, ClaimStatement } from "./claim-edits.tsx";
import { EvidenceCount } from "./evidence-count.tsx";
import type { ClaimShown } from "./shown.ts";
import claimStyles from "./claim.module.css";
import ui from "../../_components/ui.module.css";

export function ClaimHero({ claim }: { claim: ClaimShown }) {
  return (
    <>
      <nav aria-label="Breadcrumb" className={ui.small} style={{ marginBottom: "0.75rem" }}>
        <Link href="/">Explore</Link> <span aria-hidden="true">›</span> <span className={ui.muted}>Claim</span>
      </nav>
      <HiddenBanner moderation={claim.moderation} />
      <header className={claimStyles["claim-hero"]}>
        <h1 className={claimStyles["claim-hero__statement"]} data-testid="claim-statement">
          <ClaimStatement claim={claim} />
        </h1>
        <div className={claimStyles["claim-hero__meta"]}>
          <span className={ui.badge} title="Complexity tier">
            {claim.complexity_tier}
          </span>
          <TagList tags={claim.tags} />
          <span>
            Submitted by <AuthorLink author={claim.author} /> <RelTime iso={claim.created_at} />
          </span>
          <EvidenceCount claimId={claim.id} initial={claim.evidence_count} />
        </div>
        <ClaimEdits claim={claim} />
        <div style={{ marginTop: "0.75rem" }}>
          <ClaimActions initial={claim} />
        </div>
      </header>
    </>
  );
}
