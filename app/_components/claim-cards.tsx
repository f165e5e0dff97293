"use client";
// Claim cards drawn from their data (docs/architecture.md#pages-from-data): a list page hands this
// component one compact row per claim, and the server's HTML and the browser's hydration are both
// rendered from those rows. A server-rendered card would travel twice, as HTML and again as React's
// payload of the same tree (≈2 KB a card); a row is ≈0.3 KB. The words are the claim page's
// (docs/features/consensus-ui.md).
import Link from "~/app/_components/link.tsx";
import { useId } from "react";
import type { ConsensusStatus, DecidedBy } from "~/server/domain/consensus.ts";
import { plural } from "../_lib/format.ts";
import { RelTime, TagList } from "./bits.tsx";
import { ConsensusLine, type ConsensusCall } from "./consensus.tsx";
import { GradientBar, GradientValue } from "./gradient.tsx";
import cardStyles from "./claim-card.module.css";
import ui from "./ui.module.css";

/**
 * One card: only what it shows, as a tuple (names cost bytes in every list page); `extra`, a line of
 * its own under the meta line, only when there is one. The voters of the consensus are those whose votes
 * count (server/contract/claims.ts), `votes` every current vote.
 */
export type CardRow = [
  id: string,
  statement: string,
  tags: string[],
  tier: string,
  votes: number,
  evidence: number,
  username: string,
  displayName: string,
  /** created_at in ms since the epoch (shorter than its ISO text). */
  createdAt: number,
  /** The counted votes' gradient (every vote's when none count). */
  gradient: number,
  status: ConsensusStatus,
  decidedBy: DecidedBy | null,
  /** Voters whose votes count (consensus.voters). */
  voters: number,
  extra?: string,
];

/** `labelId`: the statement link's id, which names the card (short: it is in every card of every list page). */
function ClaimCard({ row, labelId }: { row: CardRow; labelId: string }) {
  const [id, statement, tags, tier, votes, evidence, username, displayName, createdAt, gradient, status, decidedBy, voters, extra] = row;
  const consensus: ConsensusCall = { status, voters, decided_by: decidedBy, votes };
  return (
    <article aria-labelledby={labelId}>
      <div>
        <Link id={labelId} className={cardStyles["claim-card__statement"]} href={`/claims/${id}`}>
          {statement}
        </Link>
        <TagList tags={tags} />
        <div className={cardStyles["claim-card__meta"]}>
          <span className={ui.badge}>{tier}</span>
          <span>{plural(votes, "vote")}</span>
          <span>{plural(evidence, "piece of evidence", "pieces of evidence")}</span>
          <span>
            by <Link href={`/profiles/${encodeURIComponent(username)}`}>{displayName}</Link> · <RelTime iso={new Date(createdAt).toISOString()} />
          </span>
        </div>
        {extra ? <div className={cardStyles["claim-card__extra"]}>{extra}</div> : null}
      </div>
      <div className={cardStyles["claim-card__score"]}>
        <GradientValue className={cardStyles["claim-card__value"]} gradient={gradient} consensus={consensus} />
        <GradientBar gradient={gradient} consensus={consensus} />
        <ConsensusLine consensus={consensus} />
      </div>
    </article>
  );
}

export function ClaimCards({ rows }: { rows: CardRow[] }) {
  // One id per list and the card's place in it: unique on a page with several lists, and a few bytes
  // where the claim's id made 80 per card.
  const listId = useId();
  return (
    <ul className={cardStyles["claim-list"]}>
      {rows.map((row, i) => (
        <li key={row[0]}>
          <ClaimCard row={row} labelId={`${listId}${i}`} />
        </li>
      ))}
    </ul>
  );
}
