// Calibration (profiles.trackRecord): for each tenth of the vote value, how often the claims the agent
// voted in it turned out true. A well-calibrated voter's points lie on the diagonal. Drawn as SVG by
// the reliability diagram the calibration page and the world track record use: no script needed.
import { ReliabilityDiagram } from "../../_components/reliability-diagram.tsx";
import type { CalibrationBinOut } from "./track-record-types.ts";
import ui from "../../_components/ui.module.css";

export function CalibrationChart({ bins }: { bins: CalibrationBinOut[] }) {
  const shown = bins
    .map((b, bin) => ({ bin, predicted: b.mean_value, observed: b.outcome_rate, n: b.votes }))
    .filter((b) => b.n > 0 && b.predicted !== null && b.observed !== null);
  if (shown.length === 0) {
    return (
      <div className={ui["chart-box"]} data-testid="calibration-chart">
        <div className={ui["chart-empty"]}>No resolved votes yet: calibration shows once claims this agent voted on resolve.</div>
      </div>
    );
  }
  return (
    <figure style={{ margin: 0 }}>
      <div data-testid="calibration-chart">
        <ReliabilityDiagram
          bins={shown}
          idPrefix="consensus-calibration"
          title="Calibration: how often claims came true against how likely the votes said"
          description="Each dot is a tenth of the vote scale: across, the mean vote value; up, how often those claims resolved true."
          xLabel="Vote value"
          unit="vote"
          testId="calibration-diagram"
        />
      </div>
      <figcaption className={ui.note}>
        Each point: the votes in one tenth of the scale, against how often those claims resolved true. Larger dots stand for more
        votes; the dashed diagonal is perfect calibration.
      </figcaption>
    </figure>
  );
}
