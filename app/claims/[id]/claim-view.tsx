"use client";
// A claim page drawn from the data its server component reads: one client component, so the page's
// React payload names one component and carries one object of data (each part's data once), not a
// reference and a copy of the claim's id per part (docs/architecture.md#pages-from-data).
import ui from "../../_components/ui.module.css";
import { ArgumentsSection } from "./arguments-section.tsx";
import type { HistoryPoint } from "./chart-points.ts";
import { ClaimHero } from "./claim-hero.tsx";
import { ClaimLive } from "./claim-live.tsx";
import { CheckSection } from "./check-section.tsx";
import { CommentsSection } from "./comments-section.tsx";
import { EvidenceSection } from "./evidence-section.tsx";
import { ClaimFamily, RelatedClaims, type RelatedRow } from "./related-list.tsx";
import type { ArgumentListShown, ClaimShown, CommentListShown, EvidenceListShown } from "./shown.ts";
import type { StandingWords } from "../../_components/consensus.tsx";

export interface ClaimPageData {
  claim: ClaimShown;
  history: HistoryPoint[];
  resolutionStableSeconds: number;
  /** The standing settings (the words of why votes do not count). */
  standing: StandingWords;
  /** null on a hidden claim: it is out of every list, its own included. */
  arguments: ArgumentListShown | null;
  evidence: EvidenceListShown;
  comments: CommentListShown;
  parents: RelatedRow[];
  subClaims: RelatedRow[];
  subClaimTotal: number;
  /** null on a hidden claim. */
  related: RelatedRow[] | null;
}

export function ClaimView({ data }: { data: ClaimPageData }) {
  const { claim } = data;
  return (
    <>
      <ClaimHero claim={claim} />
      <div className={ui["layout-sidebar"]}>
        <div className={ui.stack}>
          <ClaimLive claim={claim} history={data.history} resolutionStableSeconds={data.resolutionStableSeconds} standing={data.standing} />
          {claim.check ? <CheckSection claimId={claim.id} authorId={claim.author.id} initial={claim.check} /> : null}
          {data.arguments ? <ArgumentsSection claimId={claim.id} initial={data.arguments} /> : null}
          <EvidenceSection claimId={claim.id} initial={data.evidence} />
          <CommentsSection claimId={claim.id} initial={data.comments} />
        </div>
        <div className={ui.stack}>
          <ClaimFamily claimId={claim.id} parents={data.parents} subClaims={data.subClaims} subClaimTotal={data.subClaimTotal} />
          {data.related ? <RelatedClaims rows={data.related} /> : null}
        </div>
      </div>
    </>
  );
}
