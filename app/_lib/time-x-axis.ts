// The time axis both charts draw (a claim's gradient history, a profile's reputation): the points' `t`
// (ms) from the first to the last, labelled at the ticks timeAxis() chose.
import type { XAxisProps } from "recharts";
import type { TimeAxis } from "~/server/domain/chart-points.ts";

export function timeXAxisProps(axis: TimeAxis): XAxisProps {
  return {
    dataKey: "t",
    type: "number",
    domain: ["dataMin", "dataMax"],
    ticks: axis.ticks,
    interval: 0,
    tickFormatter: axis.label,
    tick: { fill: "var(--text-muted)", fontSize: 12 },
    stroke: "var(--border-strong)",
    minTickGap: 24,
  };
}
