// A list of claims as cards: each claim cut down to the row its card shows, drawn by claim-cards.tsx
// from those rows (docs/architecture.md#pages-from-data). Usable from server and client components.
import type { Claim } from "~/server/contract/claims.ts";
import { ClaimCards, type CardRow } from "./claim-cards.tsx";

type CardClaim = Pick<Claim, "id" | "statement" | "tags" | "complexity_tier" | "vote_count" | "evidence_count" | "author" | "created_at" | "gradient" | "consensus">;

export function cardRow(claim: CardClaim, extra: string | null = null): CardRow {
  const row: CardRow = [
    claim.id,
    claim.statement,
    claim.tags,
    claim.complexity_tier,
    claim.vote_count,
    claim.evidence_count,
    claim.author.username,
    claim.author.display_name,
    Date.parse(claim.created_at),
    // The counted votes' gradient: the number beside the status is the one it was decided from.
    claim.consensus.gradient ?? claim.gradient,
    claim.consensus.status,
    claim.consensus.decided_by,
    claim.consensus.voters,
  ];
  if (extra) row.push(extra);
  return row;
}

/** The cards of `claims`, each with an optional line of its own under the meta line (`extra`). */
export function ClaimList<C extends CardClaim>({ claims, extra }: { claims: C[]; extra?: (claim: C) => string | null }) {
  return <ClaimCards rows={claims.map((claim) => cardRow(claim, extra?.(claim) ?? null))} />;
}
