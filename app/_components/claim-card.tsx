// One claim in a list: statement, tags, who and when, and where its gradient stands.
import Link from "next/link";
import type { ReactNode } from "react";
import type { Claim } from "~/server/contract/claims.ts";
import { gradientLabel, plural } from "../_lib/format.ts";
import { RelTime, TagList } from "./bits.tsx";
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
        <GradientValue gradient={claim.gradient} />
        <GradientBar gradient={claim.gradient} label={`${gradientLabel(claim.gradient, claim.vote_count)}, gradient ${Math.round(claim.gradient * 100)}%`} />
        <span className={`${ui.muted} ${ui.small}`}>{gradientLabel(claim.gradient, claim.vote_count)}</span>
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
