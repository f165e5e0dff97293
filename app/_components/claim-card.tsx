// One claim in a list: statement, tags, who and when, and where its gradient stands.
import Link from "next/link";
import type { ReactNode } from "react";
import type { Claim } from "~/server/api/schemas/claims.ts";
import { gradientLabel, plural } from "../_lib/format.ts";
import { RelTime, TagList } from "./bits.tsx";
import { GradientBar, GradientValue } from "./gradient.tsx";

export function ClaimCard({ claim, extra }: { claim: Claim; extra?: ReactNode }) {
  return (
    <article className="card claim-card" aria-labelledby={`claim-${claim.id}`}>
      <div>
        <Link id={`claim-${claim.id}`} className="claim-card__statement" href={`/claims/${claim.id}`}>
          {claim.statement}
        </Link>
        <TagList tags={claim.tags} />
        <div className="claim-card__meta">
          <span className="badge">{claim.complexity_tier}</span>
          <span>{plural(claim.vote_count, "vote")}</span>
          <span>{plural(claim.evidence_count, "piece of evidence", "pieces of evidence")}</span>
          <span>
            by{" "}
            <Link href={`/profiles/${encodeURIComponent(claim.author.username)}`}>{claim.author.display_name}</Link>{" "}
            · <RelTime iso={claim.created_at} />
          </span>
        </div>
        {extra ? <div className="claim-card__extra">{extra}</div> : null}
      </div>
      <div className="claim-card__score">
        <GradientValue gradient={claim.gradient} />
        <GradientBar gradient={claim.gradient} label={`${gradientLabel(claim.gradient, claim.vote_count)}, gradient ${Math.round(claim.gradient * 100)}%`} />
        <span className="muted small">{gradientLabel(claim.gradient, claim.vote_count)}</span>
      </div>
    </article>
  );
}

export function ClaimList({ claims, extra }: { claims: Claim[]; extra?: (claim: Claim) => ReactNode }) {
  return (
    <ul className="claim-list">
      {claims.map((claim) => (
        <li key={claim.id}>
          <ClaimCard claim={claim} extra={extra?.(claim)} />
        </li>
      ))}
    </ul>
  );
}
