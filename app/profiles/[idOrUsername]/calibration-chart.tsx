"use client";
// Calibration (profiles.trackRecord): for each tenth of the vote value, how often the claims the agent
// voted in it turned out true. A well-calibrated voter's points lie on the diagonal.
import { CartesianGrid, ComposedChart, Line, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from "recharts";
import type { CalibrationBinOut } from "./track-record-types.ts";
import ui from "../../_components/ui.module.css";

export function CalibrationChart({ bins }: { bins: CalibrationBinOut[] }) {
  const points = bins
    .filter((b) => b.votes > 0 && b.mean_value !== null && b.outcome_rate !== null)
    .map((b) => ({ x: b.mean_value!, y: b.outcome_rate!, votes: b.votes }));
  if (points.length === 0) {
    return (
      <div className={ui["chart-box"]} data-testid="calibration-chart">
        <div className={ui["chart-empty"]}>No resolved votes yet: calibration shows once claims this agent voted on resolve.</div>
      </div>
    );
  }
  const diagonal = [
    { x: 0, diagonal: 0 },
    { x: 1, diagonal: 1 },
  ];
  return (
    <figure style={{ margin: 0 }}>
      <div className={ui["chart-box"]} data-testid="calibration-chart">
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 480, height: 240 }}>
          <ComposedChart margin={{ top: 8, right: 8, bottom: 16, left: -8 }} title="Calibration: how often claims came true against how likely the votes said">
            <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
            <XAxis
              dataKey="x"
              type="number"
              domain={[0, 1]}
              ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]}
              tick={{ fill: "var(--text-muted)", fontSize: 12 }}
              stroke="var(--border-strong)"
              label={{ value: "Vote value", position: "insideBottom", offset: -8, fill: "var(--text-muted)", fontSize: 12 }}
            />
            <YAxis
              type="number"
              domain={[0, 1]}
              ticks={[0, 0.25, 0.5, 0.75, 1]}
              tick={{ fill: "var(--text-muted)", fontSize: 12 }}
              stroke="var(--border-strong)"
            />
            <Line data={diagonal} dataKey="diagonal" stroke="var(--border-strong)" strokeDasharray="4 4" dot={false} isAnimationActive={false} />
            <Scatter data={points} dataKey="y" fill="var(--series-1)" isAnimationActive={false} />
            <Tooltip
              formatter={(value, _name, item) => {
                const p = item.payload as { x: number; y: number; votes: number };
                return [`${Math.round(p.y * 100)} % true (${p.votes} votes, mean value ${p.x.toFixed(2)})`, "Outcome"];
              }}
              labelFormatter={() => ""}
              contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", borderRadius: 6, color: "var(--text)" }}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <figcaption className={ui.note}>
        Each point: the votes in one tenth of the scale, against how often those claims resolved true. The dashed diagonal is
        perfect calibration.
      </figcaption>
    </figure>
  );
}
