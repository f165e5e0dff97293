// What a claim's picture shows, as a short version: the picture's address carries it
// (`/claims/{id}/card.png?v=…`), so a changed claim is a new address that no cache or chat preview
// holds yet, and the picture's ETag is the same version (docs/features/open-web.md#cards).
import { createHash } from "node:crypto";
import type { Claim } from "~/server/contract/claims.ts";

export type CardClaim = Pick<Claim, "id" | "statement" | "consensus" | "vote_count">;

export function cardVersion(claim: CardClaim): string {
  const { status, voters, histogram, gradient, decided_by } = claim.consensus;
  const shown = JSON.stringify([claim.statement, status, voters, histogram, gradient === null ? null : Math.round(gradient * 100), decided_by, claim.vote_count]);
  return createHash("sha256").update(shown).digest("base64url").slice(0, 12);
}

/** The picture's address, relative to the site. */
export const cardPath = (claim: CardClaim): string => `/claims/${claim.id}/card.png?v=${cardVersion(claim)}`;

/** Its size: the one OpenGraph and Twitter's large card expect. */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
