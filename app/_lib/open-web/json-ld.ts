// A claim page's structured data (docs/features/open-web.md#structured-data): schema.org `Claim` (text,
// author, datePublished, url) and, while the claim is at consensus, a `ClaimReview` by the service whose
// rating says which way, in the page's words. Read by search engines and fact-check aggregators.
import type { Claim } from "~/server/contract/claims.ts";
import { isConsensus } from "~/server/domain/consensus.ts";
import { consensusHeadline } from "../consensus-words.ts";
import { SERVICE_NAME } from "./atom.ts";

/** The rating scale of the review: 1 false … 5 true (ClaimReview's usual scale). */
const RATING = { consensus_true: 5, consensus_false: 1 } as const;

export function claimJsonLd(claim: Claim, origin: string): Record<string, unknown> {
  const url = `${origin}/claims/${claim.id}`;
  const author = { "@type": "Person", name: claim.author.display_name || claim.author.username, url: `${origin}/profiles/${encodeURIComponent(claim.author.username)}` };
  const service = { "@type": "Organization", name: SERVICE_NAME, url: `${origin}/` };
  const graph: Record<string, unknown>[] = [
    {
      "@type": "Claim",
      "@id": `${url}#claim`,
      text: claim.statement,
      author,
      datePublished: claim.created_at,
      url,
      ...(claim.tags.length ? { keywords: claim.tags.join(", ") } : {}),
    },
  ];
  const { status } = claim.consensus;
  if (isConsensus(status)) {
    graph.push({
      "@type": "ClaimReview",
      "@id": `${url}#review`,
      url,
      claimReviewed: claim.statement,
      itemReviewed: { "@id": `${url}#claim` },
      author: service,
      datePublished: claim.consensus.since ?? claim.updated_at,
      reviewRating: { "@type": "Rating", ratingValue: RATING[status], bestRating: 5, worstRating: 1, alternateName: consensusHeadline(claim.consensus) },
    });
  }
  return { "@context": "https://schema.org", "@graph": graph };
}

/** The JSON as a script element's text: `<` escaped, so no `</script>` in a statement ends it. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
