// A hidden claim as its author or a moderator sees it: the claim page rendered for its viewer, never
// kept or shared (docs/features/page-cache.md). The shared claim page answers 404 for a hidden claim,
// and its not-found page sends a viewer who may see it here (app/claims/hidden-claim-redirect.tsx).
import type { Metadata } from "next";
import ClaimPage from "../../[id]/page.tsx";
import { readAsViewer } from "../../[id]/load-claim.ts";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Hidden claim", robots: { index: false } };

export default async function HiddenClaimPage({ params }: { params: Promise<{ id: string }> }) {
  readAsViewer();
  return ClaimPage({ params });
}
