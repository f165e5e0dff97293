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
import { SidebarCardSkeleton } from "../../_components/list-skeleton.tsx";
import { plural } from "../../_lib/format.ts";
import { ArgumentsSection } from "./arguments-section.tsx";
import { CHART_POINTS, historyPoints } from "./chart-points.ts";
import { ClaimHero } from "./claim-hero.tsx";
import { ClaimLive } from "./claim-live.tsx";
import { loadClaim } from "./load-claim.ts";
import { CommentsSection } from "./comments-section.tsx";
import { EvidenceSection } from "./evidence-section.tsx";
import { ClaimFamily, RelatedList, type RelatedRow } from "./related-list.tsx";
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
  // One object for the hero and the live part (the page's React payload carries it once), its history
  // apart and compact (docs/architecture.md#pages-from-data).
  const shared = { ...claim, gradient_history: [] };
  const history = historyPoints(thinStepPoints(claim.gradient_history, CHART_POINTS));

  return (
    <>
      <ClaimHero claim={shared} />

      <div className={ui["layout-sidebar"]}>
        <div className={ui.stack}>
          <ClaimLive claim={shared} history={history} resolutionStableSeconds={config().RESOLUTION_STABLE_SECONDS} />
          {hidden ? null : <ArgumentsSection claimId={claim.id} initial={args} />}
          <EvidenceSection claimId={claim.id} initial={evidence} />
          <CommentsSection claimId={claim.id} initial={comments} />
        </div>
        <div className={ui.stack}>
          <ClaimFamily
            claimId={claim.id}
            parents={claim.parent_claims.map((c) => relatedRow(c))}
            subClaims={children.claims.map((c) => relatedRow(c))}
            subClaimTotal={children.total}
          />
          <Suspense
            fallback={<SidebarCardSkeleton title="Related claims" minHeight={160} />}
          >
            {hidden ? null : <RelatedClaims claimId={claim.id} caller={caller} />}
          </Suspense>
        </div>
      </div>
    </>
  );
}

/** The row of a claim in a short list; the line under it says how many votes unless told otherwise. */
function relatedRow(c: Claim, reason = plural(c.vote_count, "vote")): RelatedRow {
  return [c.id, c.statement, reason, c.gradient, c.consensus.status, c.consensus.voters, c.consensus.decided_by];
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
          rows={related.map((c) => {
            const tags = sharedTags.get(c.id) ?? [];
            return relatedRow(c, tags.length ? `Shares ${tags.map((t) => `#${t}`).join(", ")}` : "Same voters");
          })}
        />
      )}
    </section>
  );
}
