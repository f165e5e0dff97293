// `search` and `fetch`, the two read tools deep-research clients call by these names
// (docs/features/mcp.md#search-and-fetch), built on the same reads as GET /claims/similar, GET /claims
// and the claim page's Markdown twin: hidden claims are left out exactly as there.
import { listClaimsInput, MAX_SEARCH_TERMS, Q_MAX } from "../contract/claims.ts";
import { listEvidenceInput } from "../contract/evidence.ts";
import { RESEARCH_RESULTS, type ResearchFetch, type ResearchSearch } from "../contract/research.ts";
import { claimMarkdown } from "./claim-markdown.ts";
import { getClaimDetail, listClaims } from "./claims.ts";
import { listEvidence } from "./evidence.ts";

/** The claim pieces the Markdown twin shows, as on GET /claims/{id}.md. */
const EVIDENCE_SHOWN = 100;

/**
 * The words of the query, any of them (a research client sends a question or a few keywords): the
 * list's full-text search with `or` between the words, ranked by relevance, with its typo fallback.
 * The longest words are kept when there are more than the search takes; a query without words finds nothing.
 */
export async function searchForResearch({ query, viewerId, origin }: { query: string; viewerId: string | null; origin: string }): Promise<ResearchSearch> {
  const words = [...new Set((query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => w !== "or"))];
  const kept = words.sort((a, b) => b.length - a.length).slice(0, MAX_SEARCH_TERMS);
  const q = kept.join(" or ").slice(0, Q_MAX);
  const input = listClaimsInput.safeParse({ q, limit: RESEARCH_RESULTS });
  const claims = input.success ? (await listClaims(input.data, viewerId)).claims : [];
  return { results: claims.map((c) => ({ id: c.id, title: c.statement, url: `${origin}/claims/${c.id}` })) };
}

/** One claim as text to read and cite: its page's Markdown twin. */
export async function fetchForResearch({ claimId, viewerId, origin }: { claimId: string; viewerId: string | null; origin: string }): Promise<ResearchFetch> {
  // The claim first: one that is not found (or hidden) is a 404 before its evidence is read.
  const claim = await getClaimDetail({ claimId, viewerId });
  const evidence = await listEvidence(listEvidenceInput.parse({ claim_id: claim.id, limit: EVIDENCE_SHOWN }), viewerId);
  return {
    id: claim.id,
    title: claim.statement,
    text: claimMarkdown({ claim, evidence: evidence.evidence, totalEvidence: evidence.total, origin }),
    url: `${origin}/claims/${claim.id}`,
    metadata: {
      gradient: claim.gradient,
      vote_count: claim.vote_count,
      consensus: claim.consensus?.status ?? null,
      tags: claim.tags,
      created_at: claim.created_at,
    },
  };
}
