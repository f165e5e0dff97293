// The crowd against the world (GET /stats/calibration, docs/features/checks.md#the-crowds-calibration):
// when the crowd's gradient at a check's close_at said p, how often did the claim come out true? A
// reliability diagram drawn on the server as SVG (app/_components/reliability-diagram.tsx), the same numbers as a table,
// the crowd's Brier score and how often a stated consensus was right.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { publicCaller } from "~/server/api/server-caller.ts";
import { EmptyState } from "../_components/bits.tsx";
import { ReliabilityDiagram } from "../_components/reliability-diagram.tsx";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "How often the crowd is right",
  description: "The crowd's estimates at the close of checked claims against what happened: a reliability diagram, its Brier score, and how often a stated consensus was right.",
};

const pct = (p: number) => `${Math.round(p * 100)} %`;

export default async function CalibrationPage() {
  const caller = await publicCaller();
  const table = await caller.checks.calibration({});
  return (
    <>
      <div className={ui["page-header"]}>
        <div>
          <h1>How often the crowd is right</h1>
          <p>
            Claims with a check say how and when they will be checked against the world. Once a check&apos;s outcome is final, the crowd&apos;s estimate when voting closed is compared
            with what happened. Consensus is what the crowd thinks; the outcome is what the world did — neither is derived from the other.
          </p>
        </div>
      </div>
      {table.n === 0 ? (
        <EmptyState title="No checked claim has a final outcome yet">
          <p>The diagram appears once checks have come out true or false.</p>
        </EmptyState>
      ) : (
        <>
          <section className={ui.card} aria-labelledby="summary-title">
            <h2 id="summary-title" className={ui.card__title}>
              In numbers
            </h2>
            <dl data-testid="calibration-summary">
              <dt>Checked claims scored</dt>
              <dd>{table.n}</dd>
              <dt>The crowd&apos;s Brier score (0 is perfect; always saying 50 % scores 0.25)</dt>
              <dd data-testid="crowd-brier">{table.brier === null ? "–" : table.brier.toFixed(3)}</dd>
              <dt>A stated consensus that was right</dt>
              <dd data-testid="consensus-right">
                {table.consensus.n === 0 ? "No claim had a consensus at close yet" : `${table.consensus.right} of ${table.consensus.n} (${pct(table.consensus.right / table.consensus.n)})`}
              </dd>
            </dl>
          </section>
          <section className={ui.card} aria-labelledby="diagram-title">
            <h2 id="diagram-title" className={ui.card__title}>
              Reliability diagram
            </h2>
            <figure style={{ margin: 0 }}>
              <ReliabilityDiagram
                bins={table.bins}
                idPrefix="reliability"
                title="Reliability diagram"
                description="Each dot is a tenth of the scale: across, the crowd's mean estimate at close; up, how often those claims came out true. Dots on the diagonal are perfectly calibrated."
                xLabel="The crowd said (at close)"
                unit="claim"
              />
              <figcaption className={ui.note}>
                A dot above the dashed diagonal: claims came out true more often than the crowd said; below it, less often. Larger dots stand for more claims.
              </figcaption>
            </figure>
            <table data-testid="reliability-table">
              <caption className="visually-hidden">The crowd&apos;s estimates at close against the outcomes, per tenth of the scale</caption>
              <thead>
                <tr>
                  <th scope="col">The crowd said</th>
                  <th scope="col">Mean estimate</th>
                  <th scope="col">Came out true</th>
                  <th scope="col">Claims</th>
                </tr>
              </thead>
              <tbody>
                {table.bins.map((b) => (
                  <tr key={b.bin}>
                    <th scope="row">{`${b.bin * 10}–${b.bin === 9 ? 100 : b.bin * 10 + 10} %`}</th>
                    <td>{b.predicted === null ? "–" : pct(b.predicted)}</td>
                    <td>{b.observed === null ? "–" : pct(b.observed)}</td>
                    <td>{b.n}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
      <p className={ui.note}>
        The same numbers as JSON: <Link href="/api/v1/stats/calibration">/api/v1/stats/calibration</Link>. How checks and scores work: <Link href="/docs">the documentation</Link>.
      </p>
    </>
  );
}
