// One claim: its statement (server-rendered), where consensus stands and how it moved, its arguments
// (docs/features/arguments.md), the evidence, the discussion, and how it connects to other claims.
// Rendered the same for every viewer (one render serves them all, docs/features/page-cache.md); the viewer's own vote, bookmark, follow and what they
// may do are filled in by the client parts. A hidden claim, which only its author and moderators may
// see, is the exception: it is rendered for the viewer who may.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { type ServerCaller } from "~/server/api/server-caller.ts";
import type { Claim } from "~/server/contract/claims.ts";
import { config } from "~/server/config.ts";
import { thinStepPoints } from "~/server/domain/chart-points.ts";
import { plural } from "../../_lib/format.ts";
import { CHART_POINTS, historyPoints } from "./chart-points.ts";
import { loadClaim } from "./load-claim.ts";
import { ClaimView } from "./claim-view.tsx";
import { ClaimJsonLd } from "./json-ld.tsx";
import { claimMetadata } from "../../_lib/open-web/metadata.ts";
import type { RelatedRow } from "./related-list.tsx";
import { argumentsShown, claimShown, commentsShown, evidenceShown } from "./shown.ts";

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
  // Cards, canonical address, feed, oEmbed and the Markdown twin (docs/features/open-web.md).
  return claimMetadata(claim);
}

export default async function ClaimPage({ params }: { params: Params }) {
  const { id } = await params;
  const { claim, caller } = await loadClaim(id);
  // A hidden claim (shown to its author and moderators only) is out of every list, its own included.
  const hidden = Boolean(claim.moderation);
  // Everything is read before the first byte (the layout already waits for the claim): no part streams
  // in later behind a skeleton, so the HTML carries no fallback and no script to swap it
  // (docs/benchmarks/2026-11-25-page-weight.md, second round).
  const [evidence, comments, children, args, related] = await Promise.all([
    hidden ? { evidence: [], total: 0 } : caller.evidence.list({ claim_id: claim.id, limit: 50 }),
    hidden ? { comments: [], total: 0 } : caller.comments.list({ claim_id: claim.id, limit: 50 }),
    hidden ? { claims: [], total: 0, limit: 10, offset: 0 } : caller.claims.children({ claim_id: claim.id, limit: 10 }),
    hidden ? { arguments: [], total: 0, balance: 0 } : caller.arguments.list({ claim_id: claim.id, sort_by: "impact", limit: 50 }),
    hidden ? null : relatedRows(caller, claim.id),
  ]);
  // One client component given the data, cut to what the page shows: the hero and the live part share
  // the claim object, its history apart and compact (docs/architecture.md#pages-from-data).
  return (
    <>
      <ClaimJsonLd claim={claim} />
      <ClaimView
        data={{
          claim: claimShown(claim),
          history: historyPoints(thinStepPoints(claim.gradient_history, CHART_POINTS)),
          resolutionStableSeconds: config().RESOLUTION_STABLE_SECONDS,
          standing: { minAgeSeconds: config().STANDING_MIN_AGE_SECONDS, minVotes: config().STANDING_MIN_VOTES },
          arguments: hidden ? null : argumentsShown(args),
          evidence: evidenceShown(evidence),
          comments: commentsShown(comments),
          parents: claim.parent_claims.map((c) => relatedRow(c)),
          subClaims: children.claims.map((c) => relatedRow(c)),
          subClaimTotal: children.total,
          related,
        }}
      />
    </>
  );
}

/** The row of a claim in a short list; the line under it says how many votes unless told otherwise. */
function relatedRow(c: Claim, reason = plural(c.vote_count, "vote")): RelatedRow {
  return [c.id, c.statement, reason, c.consensus.gradient ?? c.gradient, c.consensus.status, c.consensus.voters, c.consensus.decided_by];
}

/** Related claims as rows, the line under each saying what it shares with this one. */
async function relatedRows(caller: ServerCaller, claimId: string): Promise<RelatedRow[]> {
  const { related } = await caller.discover.related({ claim_id: claimId, limit: 5 });
  return related.map((c) => relatedRow(c, c.shared_tags.length ? `Shares ${c.shared_tags.map((t) => `#${t}`).join(", ")}` : "Same voters"));
}
