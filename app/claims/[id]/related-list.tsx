"use client";
// The claim page's short lists of other claims (builds on, sub-claims, related), drawn from compact rows
// (docs/architecture.md#pages-from-data).
import Link from "next/link";
import type { ConsensusStatus, DecidedBy } from "~/server/domain/consensus.ts";
import { ConsensusLine, type ConsensusCall } from "../../_components/consensus.tsx";
import { GradientValue } from "../../_components/gradient.tsx";
import ui from "../../_components/ui.module.css";

/** A claim in a short list: id, statement, the line under it, gradient and consensus. */
export type RelatedRow = [id: string, statement: string, reason: string, gradient: number, status: ConsensusStatus, voters: number, decidedBy: DecidedBy | null];

export function RelatedList({ rows }: { rows: RelatedRow[] }) {
  return (
    <ul className={ui["compact-list"]}>
      {rows.map(([id, statement, reason, gradient, status, voters, decidedBy]) => {
        const consensus: ConsensusCall = { status, voters, decided_by: decidedBy };
        return (
          <li key={id}>
            <Link href={`/claims/${id}`}>{statement}</Link>
            <div className={ui.meta}>
              <span>{reason}</span>
              <GradientValue gradient={gradient} consensus={consensus} />
              <ConsensusLine consensus={consensus} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** What the claim builds on and what builds on it (the first sub-claims of `subClaimTotal`). */
export function ClaimFamily({ claimId, parents, subClaims, subClaimTotal }: { claimId: string; parents: RelatedRow[]; subClaims: RelatedRow[]; subClaimTotal: number }) {
  return (
    <>
      <section className={ui.card} aria-labelledby="parents-title">
        <h2 id="parents-title" className={ui.card__title}>
          Builds on
        </h2>
        {parents.length === 0 ? (
          <p className={ui.note}>This claim stands on its own.</p>
        ) : (
          <RelatedList rows={parents} />
        )}
      </section>
      <section className={ui.card} aria-labelledby="children-title">
        <h2 id="children-title" className={ui.card__title}>
          Sub-claims {subClaimTotal > 0 ? <span className={ui.note}>{subClaimTotal}</span> : null}
        </h2>
        {subClaims.length === 0 ? (
          <p className={ui.note}>No claim builds on this one yet.</p>
        ) : (
          <RelatedList rows={subClaims} />
        )}
        <p style={{ marginTop: "0.75rem", marginBottom: 0 }}>
          <Link className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`} href={`/claims/new?parent=${claimId}`}>
            Add a sub-claim
          </Link>
        </p>
      </section>
    </>
  );
}

/** Claims related by shared tags and shared voters. */
export function RelatedClaims({ rows }: { rows: RelatedRow[] }) {
  return (
    <section className={ui.card} aria-labelledby="related-title">
      <h2 id="related-title" className={ui.card__title}>
        Related claims
      </h2>
      {rows.length === 0 ? (
        <p className={ui.note}>No related claims yet. Claims are related by shared tags and shared voters.</p>
      ) : (
        <RelatedList rows={rows} />
      )}
    </section>
  );
}
