// The gradient over time (gradient_history, oldest first) as a step line between 0 (false) and 1 (true);
// the time axis carries dates. Drawn as SVG by the server's render and again by the claim's live part
// when votes arrive (app/_components/plot.tsx): no chart library in the page's scripts.
import { formatDate } from "~/server/domain/dates.ts";
import { ChartTable, HoverColumns, Plot, ReferenceLine, StepLine } from "../../_components/plot.tsx";
import { timeAxis } from "~/server/domain/chart-points.ts";
import { CONSENSUS_HIGH, CONSENSUS_LOW } from "~/server/domain/gradient.ts";
import { percent } from "../../_lib/format.ts";
import ui from "../../_components/ui.module.css";

export interface GradientPoint {
  gradient: number;
  vote_count: number;
  recorded_at: string;
}

const Y_TICKS = [0, 0.2, 0.5, 0.8, 1].map((at) => ({ at, text: at.toFixed(1).replace(/\.0$/, "") }));

export function GradientHistoryChart({ history }: { history: GradientPoint[] }) {
  if (history.length === 0) {
    return (
      <div className={`${ui["chart-box"]} ${ui["chart-box--small"]}`} data-testid="gradient-history-chart">
        <div className={ui["chart-empty"]}>No votes yet: the history starts with the first vote.</div>
      </div>
    );
  }
  const ts = history.map((p) => Date.parse(p.recorded_at));
  const from = ts[0];
  const to = ts[ts.length - 1];
  const span = to - from || 1;
  const axis = timeAxis(from, to, 3);
  const xs = ts.map((t) => (t - from) / span);
  const when = (t: number) => formatDate(t, "d MMM yyyy, HH:mm");
  const firstPoint = history[0];
  const lastPoint = history[history.length - 1];
  return (
    <figure style={{ margin: 0 }}>
      <div data-testid="gradient-history-chart">
        <Plot
          small
          label="How the gauge moved over time"
          yTicks={Y_TICKS}
          xTicks={to > from ? axis.ticks.map((t) => ({ at: (t - from) / span, text: axis.label(t) })) : [{ at: 0, text: axis.label(from) }]}
        >
          <ReferenceLine y={CONSENSUS_HIGH} color="var(--true)" />
          <ReferenceLine y={CONSENSUS_LOW} color="var(--false)" />
          <StepLine points={history.map((p, i) => [xs[i], p.gradient] as const)} color="var(--accent)" width={2.5} dots={history.length < 20} testId="gradient-line" />
          <HoverColumns xs={xs} titles={history.map((p, i) => `${when(ts[i])}: ${percent(p.gradient)} after ${p.vote_count} vote${p.vote_count === 1 ? "" : "s"}`)} />
        </Plot>
      </div>
      <figcaption className={ui.note}>
        {history.length === 1
          ? `${percent(lastPoint.gradient)} after the first vote.`
          : `From ${percent(firstPoint.gradient)} to ${percent(lastPoint.gradient)} over ${history.length} changes. Dashed lines at ${percent(CONSENSUS_HIGH)} and ${percent(CONSENSUS_LOW)}: beyond them, votes alone call a consensus while there is too little voting history to compare viewpoints.`}
      </figcaption>
      <ChartTable
        caption="The gradient after each change"
        head={["When", "Gradient", "Votes"]}
        rows={history.map((p, i) => [when(ts[i]), percent(p.gradient), p.vote_count])}
      />
    </figure>
  );
}
