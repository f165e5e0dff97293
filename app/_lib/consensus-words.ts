// Where consensus on a claim stands, in a few words: the one headline every place that shows a claim
// uses — the claim page, cards, lists (app/_components/consensus.tsx re-exports it), and the picture,
// feeds, embed and structured data of docs/features/open-web.md. Plain functions, no component.
import type { Consensus } from "~/server/contract/claims.ts";
import { plural } from "./format.ts";

/**
 * What the headline, the tone and a card's line read of a claim's consensus (cards carry no more:
 * claim-cards.tsx); `votes`, every current vote, when known: the headline then says when some of them
 * do not count.
 */
export type ConsensusCall = Pick<Consensus, "status" | "voters" | "decided_by"> & { votes?: number };

/** Whether the claim has a number worth showing as where it stands (5 voters or more). */
export function hasVerdict(consensus: ConsensusCall): boolean {
  return consensus.status !== "no_votes" && consensus.status !== "too_few_votes";
}

/** The status in a few words: the headline everywhere a claim appears. */
export function consensusHeadline(consensus: ConsensusCall): string {
  // Votes cast that the status does not read (docs/features/consensus.md#standing) are not "votes so far".
  const counted = consensus.votes !== undefined && consensus.votes > consensus.voters ? "counted " : "";
  switch (consensus.status) {
    case "no_votes":
      return counted ? "No counted votes yet" : "No votes yet";
    case "too_few_votes":
      return `${plural(consensus.voters, `${counted}vote`)} so far — too few to call`;
    case "consensus_true":
      return "At consensus: true";
    case "consensus_false":
      return "At consensus: false";
    case "divided":
      return "Divided";
    case "open":
      return "Open: no consensus yet";
  }
}

