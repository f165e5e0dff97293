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
