// A claim's status as one line of text, in the page's words (app/_lib/consensus-words.ts), for the
// places that have no room for the page's panel: feed entries, link previews' descriptions.
import type { Claim } from "~/server/contract/claims.ts";
import { consensusHeadline, hasVerdict } from "../consensus-words.ts";
import { percent } from "../format.ts";

/** Where a claim stands, in the page's words: "At consensus: true · 87% true (12 counted votes)". */
export function statusLine(claim: Pick<Claim, "consensus" | "vote_count">): string {
  const headline = consensusHeadline({ ...claim.consensus, votes: claim.vote_count });
  const { gradient, voters } = claim.consensus;
  return hasVerdict(claim.consensus) && gradient !== null ? `${headline} · ${percent(gradient)} true (${voters} counted votes)` : headline;
}

