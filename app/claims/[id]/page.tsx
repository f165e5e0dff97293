// One claim: its statement (server-rendered), where consensus stands and how it moved, its arguments
// (docs/features/arguments.md), the evidence, the discussion, and how it connects to other claims.
// Rendered the same for every viewer (one render serves them all, docs/features/page-cache.md); the viewer's own vote, bookmark, follow and what they
// may do are filled in by the client parts. A hidden claim, which only its author and moderators may
// see, is the exception: it is rendered for the viewer who may.
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { publicCaller, type ServerCaller } from "~/server/api/server-caller.ts";
import type { Claim } from "~/server/contract/claims.ts";
import { config } from "~/server/config.ts";
import { thinStepPoints } from "~/server/domain/chart-points.ts";
import { AuthorLink, RelTime, SkeletonLines, TagList } from "../../_components/bits.tsx";
import { ConsensusLine } from "../../_components/consensus.tsx";
import { GradientValue } from "../../_components/gradient.tsx";
import { HiddenBanner } from "../../_components/report-button.tsx";
import { plural } from "../../_lib/format.ts";
import { ArgumentsSection } from "./arguments-section.tsx";
import { ClaimActions } from "./claim-actions.tsx";
import { CHART_POINTS } from "./chart-points.ts";
import { ClaimLive } from "./claim-live.tsx";
import { loadClaim } from "./load-claim.ts";
import { CommentsSection } from "./comments-section.tsx";
import { EvidenceCount } from "./evidence-count.tsx";
import { EvidenceSection } from "./evidence-section.tsx";
import claimStyles from "./claim.module.css";
import ui from "../../_components/ui.module.css";

// Kept by Next between renders and served to every viewer (docs/features/page-cache.md): rendered on
// its first view, again as soon as an event on the claim arrives (server/http/page-regen.ts), and at
// the latest once `revalidate` seconds have passed (for what no event announces, like a new sub-claim).
export const revalidate = 300;

/** None at build time: each claim is rendered on its first view, then kept. */
export function generateStaticParams(): { id: string }[] {
  return [];
}

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id } = await params;
  const { claim } = await loadClaim(id);
  const title = claim.statement.length > 70 ? `${claim.statement.slice(0, 67)}…` : claim.statement;
  // The Markdown twin for agents (server/mcp/site.ts): <link rel="alternate" type="text/markdown">.
  return { title, description: claim.statement.slice(0, 200), alternates: { types: { "text/markdown": `/claims/${claim.id}.md` } } };
}

export default async function ClaimPage({ params }: { params: Params }) {
  const { id } = await params;
  const { claim, caller } = await loadClaim(id);
  // A hidden claim (shown to its author and moderators only) is out of every list, its own included.
  const hidden = Boolean(claim.moderation);
  const [evidence, comments, children, args] = await Promise.all([
    hidden ? { evidence: [], total: 0, limit: 50, offset: 0 } : caller.evidence.list({ claim_id: claim.id, limit: 50 }),
    hidden ? { comments: [], total: 0 } : caller.comments.list({ claim_id: claim.id, limit: 50 }),
    hidden ? { claims: [], total: 0, limit: 10, offset: 0 } : caller.claims.children({ claim_id: claim.id, limit: 10 }),
    hidden ? { arguments: [], total: 0, balance: 0 } : caller.arguments.list({ claim_id: claim.id, sort_by: "impact", limit: 50 }),
  ]);

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
          <EvidenceCount claimId={claim.id} initial={claim.evidence_count} />
        </div>
        <div style={{ marginTop: "0.75rem" }}>
          <ClaimActions initial={claim} />
        </div>
      </header>

      <div className={ui["layout-sidebar"]}>
        <div className={ui.stack}>
          <ClaimLive
            initial={{ ...claim, gradient_history: thinStepPoints(claim.gradient_history, CHART_POINTS) }}
            resolutionStableSeconds={config().RESOLUTION_STABLE_SECONDS}
          />
          {hidden ? null : <ArgumentsSection claimId={claim.id} initial={args} />}
          <EvidenceSection claimId={claim.id} initial={evidence} />
          <CommentsSection claimId={claim.id} initial={comments} />
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
            {hidden ? null : <RelatedClaims claimId={claim.id} caller={caller} />}
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
            <GradientValue gradient={c.gradient} consensus={c.consensus} />
            <ConsensusLine consensus={c.consensus} />
          </div>
        </li>
      ))}
    </ul>
  );
}

async function RelatedClaims({ claimId, caller }: { claimId: string; caller: ServerCaller }) {
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
