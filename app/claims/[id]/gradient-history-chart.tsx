"use client";
// The gradient over time (gradient_history, oldest first) as a step line between 0 (false) and 1 (true);
// the time axis carries dates.
import { format, parseISO } from "date-fns";
import { useMemo, useSyncExternalStore } from "react";
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { timeXAxisProps } from "../../_lib/time-x-axis.ts";
import { timeAxis } from "~/server/domain/chart-points.ts";
import { CONSENSUS_HIGH, CONSENSUS_LOW } from "~/server/domain/gradient.ts";
import { percent } from "../../_lib/format.ts";
import ui from "../../_components/ui.module.css";

export interface GradientPoint {
  gradient: number;
  vote_count: number;
  recorded_at: string;
}

const noSubscription = () => () => {};

export function GradientHistoryChart({ history }: { history: GradientPoint[] }) {
  const from = history.length ? parseISO(history[0].recorded_at).getTime() : 0;
  const to = history.length ? parseISO(history[history.length - 1].recorded_at).getTime() : 0;
  // The same ticks and formatter while the span stands: re-renders (a refetch) keep the axis as drawn.
  const axis = useMemo(() => timeAxis(from, to, 3), [from, to]);
  // The chart is drawn in the browser only: on the server it would be an empty sized wrapper (it measures
  // its box first), bytes in every page's HTML for nothing; the box keeps its place meanwhile.
  const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false);
  if (history.length === 0) {
    return (
      <div className={`${ui["chart-box"]} ${ui["chart-box--small"]}`}>
        <div className={ui["chart-empty"]}>No votes yet: the history starts with the first vote.</div>
      </div>
    );
  }
  const data = history.map((p) => ({ t: parseISO(p.recorded_at).getTime(), gradient: p.gradient, votes: p.vote_count }));
  const firstPoint = history[0];
  const lastPoint = history[history.length - 1];
  return (
    <figure style={{ margin: 0 }}>
      <div className={`${ui["chart-box"]} ${ui["chart-box--small"]}`} data-testid="gradient-history-chart">
        {inBrowser ? (
          <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 520, height: 200 }}>
            <LineChart data={data} margin={{ top: 8, right: 56, bottom: 0, left: 8 }} title="How the gauge moved over time (arrow keys move through the points)">
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
              <XAxis {...timeXAxisProps(axis)} />
              <YAxis domain={[0, 1]} ticks={[0, 0.2, 0.5, 0.8, 1]} tick={{ fill: "var(--text-muted)", fontSize: 12 }} stroke="var(--border-strong)" />
              <ReferenceLine y={CONSENSUS_HIGH} stroke="var(--true)" strokeDasharray="4 4" />
              <ReferenceLine y={CONSENSUS_LOW} stroke="var(--false)" strokeDasharray="4 4" />
              <Tooltip
                labelFormatter={(t) => format(Number(t), "d MMM yyyy, HH:mm")}
                formatter={(value) => [percent(Number(value)), "Gradient"]}
                contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", borderRadius: 6, color: "var(--text)" }}
              />
              <Line
                type="stepAfter"
                dataKey="gradient"
                stroke="var(--accent)"
                strokeWidth={2.5}
                dot={data.length < 20}
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
        ) : null}
      </div>
      <figcaption className={ui.note}>
        {history.length === 1
          ? `${percent(lastPoint.gradient)} after the first vote.`
          : `From ${percent(firstPoint.gradient)} to ${percent(lastPoint.gradient)} over ${history.length} changes. Dashed lines at ${percent(CONSENSUS_HIGH)} and ${percent(CONSENSUS_LOW)}: beyond them, votes alone call a consensus while there is too little voting history to compare viewpoints.`}
      </figcaption>
    </figure>
  );
}
