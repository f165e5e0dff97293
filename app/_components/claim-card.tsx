// One claim in a list: statement, tags, who and when, and where consensus stands (the same words as the
// claim page: docs/features/consensus-ui.md).
import Link from "next/link";
import type { ReactNode } from "react";
import type { Claim } from "~/server/contract/claims.ts";
import { plural } from "../_lib/format.ts";
import { RelTime, TagList } from "./bits.tsx";
import { ConsensusLine } from "./consensus.tsx";
import { GradientBar, GradientValue } from "./gradient.tsx";
import cardStyles from "./claim-card.module.css";
import ui from "./ui.module.css";

export function ClaimCard({ claim, extra }: { claim: Claim; extra?: ReactNode }) {
  return (
    <article className={`${ui.card} ${cardStyles["claim-card"]}`} aria-labelledby={`claim-${claim.id}`}>
      <div>
        <Link id={`claim-${claim.id}`} className={cardStyles["claim-card__statement"]} href={`/claims/${claim.id}`}>
          {claim.statement}
        </Link>
        <TagList tags={claim.tags} />
        <div className={cardStyles["claim-card__meta"]}>
          <span className={ui.badge}>{claim.complexity_tier}</span>
          <span>{plural(claim.vote_count, "vote")}</span>
          <span>{plural(claim.evidence_count, "piece of evidence", "pieces of evidence")}</span>
          <span>
            by{" "}
            <Link href={`/profiles/${encodeURIComponent(claim.author.username)}`}>{claim.author.display_name}</Link>{" "}
            · <RelTime iso={claim.created_at} />
          </span>
        </div>
        {extra ? <div className={cardStyles["claim-card__extra"]}>{extra}</div> : null}
      </div>
      <div className={cardStyles["claim-card__score"]}>
        <GradientValue className={cardStyles["claim-card__value"]} gradient={claim.gradient} consensus={claim.consensus} />
        <GradientBar gradient={claim.gradient} consensus={claim.consensus} />
        <ConsensusLine consensus={claim.consensus} />
      </div>
    </article>
  );
}

export function ClaimList({ claims, extra }: { claims: Claim[]; extra?: (claim: Claim) => ReactNode }) {
  return (
    <ul className={cardStyles["claim-list"]}>
      {claims.map((claim) => (
        <li key={claim.id}>
          <ClaimCard claim={claim} extra={extra?.(claim)} />
        </li>
      ))}
    </ul>
  );
}
