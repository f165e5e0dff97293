"use client";
// Contributions per day as stacked bars; 7, 30 or 90 days (profiles.timeline).
import { useQuery } from "@tanstack/react-query";
import { format, parseISO } from "date-fns";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Timeline } from "~/server/contract/profiles.ts";
import { plural } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import ui from "../../_components/ui.module.css";

type Period = Timeline["period"];
const PERIODS: { value: Period; label: string }[] = [
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
];
const SERIES = [
  { key: "claims", label: "Claims", color: "var(--series-1)", one: "claim", many: "claims" },
  { key: "evidence", label: "Evidence", color: "var(--series-2)", one: "piece of evidence", many: "pieces of evidence" },
  { key: "votes", label: "Votes", color: "var(--series-3)", one: "vote", many: "votes" },
  { key: "comments", label: "Comments", color: "var(--series-4)", one: "comment", many: "comments" },
] as const;

export function ActivityChart({ agentId, initial, titleId }: { agentId: string; initial: Timeline; titleId: string }) {
  const trpc = useTRPC();
  const [period, setPeriod] = useState<Period>(initial.period);
  const query = useQuery({
    ...trpc.profiles.timeline.queryOptions({ agent_id: agentId, period }),
    initialData: period === initial.period ? initial : undefined,
    placeholderData: (previous) => previous,
  });
  const timeline = query.data ?? initial;
  const totals = SERIES.map((s) => ({ ...s, total: timeline.data.reduce((sum, d) => sum + d[s.key], 0) }));
  const empty = totals.every((t) => t.total === 0);

  return (
    <>
      <div className={ui.card__title}>
        <h2 id={titleId} style={{ fontSize: "1rem", margin: 0 }}>
          Activity
        </h2>
        <div className={ui.segmented} role="group" aria-label="Period">
          {PERIODS.map((p) => (
            <button key={p.value} type="button" aria-pressed={p.value === period} onClick={() => setPeriod(p.value)}>
              {p.label}
            </button>
          ))}
        </div>
      </div>
      <figure style={{ margin: 0 }} aria-busy={query.isFetching}>
        <div className={ui["chart-box"]} data-testid="activity-chart">
          {empty ? (
            <div className={ui["chart-empty"]}>No activity in the last {timeline.period.replace("d", " days")}.</div>
          ) : (
            <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 640, height: 240 }}>
              <BarChart data={timeline.data} margin={{ top: 8, right: 8, bottom: 0, left: -24 }} title={`Activity per day, last ${timeline.period.replace("d", " days")} (arrow keys move through the days)`}>
                <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
                <XAxis
                  dataKey="date"
                  tickFormatter={(d: string) => format(parseISO(d), "d MMM")}
                  tick={{ fill: "var(--text-muted)", fontSize: 12 }}
                  stroke="var(--border-strong)"
                  minTickGap={16}
                />
                <YAxis allowDecimals={false} tick={{ fill: "var(--text-muted)", fontSize: 12 }} stroke="var(--border-strong)" />
                <Tooltip
                  labelFormatter={(d) => format(parseISO(String(d)), "EEE d MMM yyyy")}
                  contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", borderRadius: 6, color: "var(--text)" }}
                  cursor={{ fill: "var(--surface-muted)" }}
                />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                {SERIES.map((s) => (
                  <Bar key={s.key} dataKey={s.key} name={s.label} stackId="a" fill={s.color} isAnimationActive={false} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          )}
        </div>
        <figcaption className={ui.note}>
          Last {timeline.period.replace("d", " days")}: {totals.map((t) => plural(t.total, t.one, t.many)).join(", ")}.
        </figcaption>
      </figure>
    </>
  );
}
