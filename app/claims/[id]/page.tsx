// One claim: its statement (server-rendered), where consensus stands and how it moved, the evidence,
// the discussion, and how it connects to other claims.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache, Suspense } from "react";
import { currentViewer, isTrpcError, serverCaller } from "~/server/api/server-caller.ts";
import type { Claim } from "~/server/contract/claims.ts";
import { thinStepPoints } from "~/server/domain/chart-points.ts";
import { AuthorLink, RelTime, SkeletonLines, TagList } from "../../_components/bits.tsx";
import { GradientValue } from "../../_components/gradient.tsx";
import { HiddenBanner, ReportButton } from "../../_components/report-button.tsx";
import { plural } from "../../_lib/format.ts";
import { ClaimActions } from "./claim-actions.tsx";
import { ClaimLive } from "./claim-live.tsx";
import { CommentsSection } from "./comments-section.tsx";
import { EvidenceSection } from "./evidence-section.tsx";
import claimStyles from "./claim.module.css";
import ui from "../../_components/ui.module.css";

export const dynamic = "force-dynamic";

type Params = Promise<{ id: string }>;

/** The history chart is ≈520 px wide: more points than this add bytes to the page, not detail. */
const CHART_POINTS = 120;

/** Once per request (metadata and page share it). */
const loadClaim = cache(async (id: string) => {
  const caller = await serverCaller();
  try {
    return await caller.claims.get({ claim_id: id });
  } catch (err) {
    if (isTrpcError(err, "NOT_FOUND")) notFound();
    throw err;
  }
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id } = await params;
  const claim = await loadClaim(id);
  const title = claim.statement.length > 70 ? `${claim.statement.slice(0, 67)}…` : claim.statement;
  return { title, description: claim.statement.slice(0, 200) };
}

export default async function ClaimPage({ params }: { params: Params }) {
  const { id } = await params;
  const claim = await loadClaim(id);
  const caller = await serverCaller();
  // A hidden claim (shown to its author and moderators only) is out of every list, its own included.
  const hidden = Boolean(claim.moderation);
  const [viewer, evidence, comments, children] = await Promise.all([
    currentViewer(),
    hidden ? { evidence: [], total: 0, limit: 50, offset: 0 } : caller.evidence.list({ claim_id: claim.id, limit: 50 }),
    hidden ? { comments: [], total: 0 } : caller.comments.list({ claim_id: claim.id, limit: 50 }),
    hidden ? { claims: [], total: 0, limit: 10, offset: 0 } : caller.claims.children({ claim_id: claim.id, limit: 10 }),
  ]);
  const role = !viewer ? "anonymous" : viewer.id === claim.author.id ? "author" : "member";

  return (
    <>
      <nav aria-label="Breadcrumb" className={ui.small} style={{ marginBottom: "0.75rem" }}>
        <Link href="/">Explore</Link> <span aria-hidden="true">›</span> <span className={ui.muted}>Claim</span>
      </nav>
      <HiddenBanner moderation={claim.moderation} />
      <header className={claimStyles["claim-hero"]}>
        <h1 className={claimStyles["claim-hero__statement"]} data-testid="claim-statement">
          {claim.statement}
        </h1>
        <div className={claimStyles["claim-hero__meta"]}>
          <span className={ui.badge} title="Complexity tier">
            {claim.complexity_tier}
          </span>
          <TagList tags={claim.tags} />
          <span>
            Submitted by <AuthorLink author={claim.author} /> <RelTime iso={claim.created_at} />
          </span>
          <span>{plural(claim.evidence_count, "piece of evidence", "pieces of evidence")}</span>
        </div>
        <div style={{ marginTop: "0.75rem" }}>
          <ClaimActions
            claimId={claim.id}
            signedIn={Boolean(viewer)}
            initialBookmarked={claim.is_bookmarked ?? false}
            initialFollowing={claim.is_following ?? false}
          />
          {viewer && viewer.id !== claim.author.id && !claim.moderation ? <ReportButton targetType="claim" targetId={claim.id} /> : null}
        </div>
      </header>

      <div className={ui["layout-sidebar"]}>
        <div className={ui.stack}>
          <ClaimLive initial={{ ...claim, gradient_history: thinStepPoints(claim.gradient_history, CHART_POINTS) }} role={role} />
          <EvidenceSection claimId={claim.id} initial={evidence} viewerId={viewer?.id ?? null} />
          <CommentsSection claimId={claim.id} initial={comments} viewerId={viewer?.id ?? null} />
        </div>
        <div className={ui.stack}>
          <section className={ui.card} aria-labelledby="parents-title">
            <h2 id="parents-title" className={ui.card__title}>
              Builds on
            </h2>
            {claim.parent_claims.length === 0 ? (
              <p className={`${ui.muted} ${ui.small}`}>This claim stands on its own.</p>
            ) : (
              <RelatedList claims={claim.parent_claims} />
            )}
          </section>
          <section className={ui.card} aria-labelledby="children-title">
            <h2 id="children-title" className={ui.card__title}>
              Sub-claims {children.total > 0 ? <span className={`${ui.muted} ${ui.small}`}>{children.total}</span> : null}
            </h2>
            {children.claims.length === 0 ? (
              <p className={`${ui.muted} ${ui.small}`}>No claim builds on this one yet.</p>
            ) : (
              <RelatedList claims={children.claims} />
            )}
            <p style={{ marginTop: "0.75rem", marginBottom: 0 }}>
              <Link className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`} href={`/claims/new?parent=${claim.id}`}>
                Add a sub-claim
              </Link>
            </p>
          </section>
          <Suspense
            fallback={
              <section className={ui.card} style={{ minHeight: 160 }} aria-busy="true">
                <h2 className={ui.card__title}>Related claims</h2>
                <SkeletonLines lines={4} />
              </section>
            }
          >
            {hidden ? null : <RelatedClaims claimId={claim.id} />}
          </Suspense>
        </div>
      </div>
    </>
  );
}

function RelatedList({ claims, reason }: { claims: Claim[]; reason?: (c: Claim) => string }) {
  return (
    <ul className={ui["compact-list"]}>
      {claims.map((c) => (
        <li key={c.id}>
          <Link href={`/claims/${c.id}`}>{c.statement}</Link>
          <div className={ui.meta}>
            <span>{reason ? reason(c) : plural(c.vote_count, "vote")}</span>
            <GradientValue gradient={c.gradient} />
          </div>
        </li>
      ))}
    </ul>
  );
}

async function RelatedClaims({ claimId }: { claimId: string }) {
  const caller = await serverCaller();
  const { related } = await caller.discover.related({ claim_id: claimId, limit: 5 });
  const sharedTags = new Map(related.map((r) => [r.id, r.shared_tags]));
  return (
    <section className={ui.card} aria-labelledby="related-title" style={{ minHeight: 160 }}>
      <h2 id="related-title" className={ui.card__title}>
        Related claims
      </h2>
      {related.length === 0 ? (
        <p className={`${ui.muted} ${ui.small}`}>No related claims yet. Claims are related by shared tags and shared voters.</p>
      ) : (
        <RelatedList
          claims={related}
          reason={(c) => {
            const tags = sharedTags.get(c.id) ?? [];
            return tags.length ? `Shares ${tags.map((t) => `#${t}`).join(", ")}` : "Same voters";
          }}
        />
      )}
    </section>
  );
}
