"use client";
// The claim page's short lists of other claims (builds on, sub-claims, related), drawn from compact rows
// (docs/architecture.md#pages-from-data).
import Link from "~/app/_components/link.tsx";
import type { ReactNode } from "react";
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

/** A card of one short list: its title, the rows or what to say when there are none, and what follows. */
function ListCard({ id, title, rows, empty, children }: { id: string; title: ReactNode; rows: RelatedRow[]; empty: string; children?: ReactNode }) {
  return (
    <section className={ui.card} aria-labelledby={id}>
      <h2 id={id} className={ui.card__title}>
        {title}
      </h2>
      {rows.length === 0 ? <p className={ui.note}>{empty}</p> : <RelatedList rows={rows} />}
      {children}
    </section>
  );
}

/** What the claim builds on and what builds on it (the first sub-claims of `subClaimTotal`). */
export function ClaimFamily({ claimId, parents, subClaims, subClaimTotal }: { claimId: string; parents: RelatedRow[]; subClaims: RelatedRow[]; subClaimTotal: number }) {
  return (
    <>
      <ListCard id="parents-title" title="Builds on" rows={parents} empty="This claim stands on its own." />
      <ListCard
        id="children-title"
        title={<>Sub-claims {subClaimTotal > 0 ? <span className={ui.note}>{subClaimTotal}</span> : null}</>}
        rows={subClaims}
        empty="No claim builds on this one yet."
      >
        <p style={{ marginTop: "0.75rem", marginBottom: 0 }}>
          <Link className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`} href={`/claims/new?parent=${claimId}`}>
            Add a sub-claim
          </Link>
        </p>
      </ListCard>
    </>
  );
}

/** Claims related by shared tags and shared voters. */
export function RelatedClaims({ rows }: { rows: RelatedRow[] }) {
  return <ListCard id="related-title" title="Related claims" rows={rows} empty="No related claims yet. Claims are related by shared tags and shared voters." />;
}
